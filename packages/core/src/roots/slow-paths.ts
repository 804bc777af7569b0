/**
 * Which paths are on a file system that may stall: network mounts (NFS, SMB, sshfs…), FUSE and
 * hypervisor shares, automount points, and any directory the operator names. Synchronous calls are
 * right on a local disk (microseconds, no thread-pool round trip) and wrong there: one stalled
 * synchronous call stops the whole server, every other call and cancellation with it. Callers ask
 * {@link SlowPaths.isSlow} before taking a synchronous fast path.
 */
import { isAbsolute, resolve } from 'node:path';
import { isWithin } from './containment.js';
import { isSlowType, type Mount, readLinuxMounts, readMountTable } from './mount-table.js';

/** How long a Linux mount table is trusted before it is read again (mounts come and go). */
const REFRESH_MS = 5_000;
/** Elsewhere reading the table runs a program, so it is read again less often. */
const REFRESH_ELSEWHERE_MS = 30_000;

/**
 * The slow paths of this process: the mount table, plus the operator's own list. The table is read
 * once before the first answer, then again in the background every few seconds (30 s where that
 * runs a program): no question waits for a re-read, it is answered from the table in hand.
 *
 * @example
 * ```ts
 * await slowPaths.ready();                // at start-up, before the first call
 * slowPaths.add('/Volumes/share');        // --slow-path: the operator knows better
 * slowPaths.isSlow(`${dir}/notes.txt`);   // false on a local disk: a synchronous read is safe
 * ```
 */
export class SlowPaths {
  readonly #platform: NodeJS.Platform;
  /** Slow mount points and operator paths, longest first; `undefined` until the table is read. */
  #slow: string[] | undefined;
  /** Every mount point with its verdict, longest first, so the nearest mount decides. */
  #mounts: { path: string; slow: boolean }[] = [];
  readonly #extra: string[] = [];
  #loading: Promise<void> | undefined;
  /** A background re-read is under way: one at a time. */
  #refreshing = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(platform: NodeJS.Platform = process.platform) {
    this.#platform = platform;
  }

  /**
   * Reads the mount table, if not yet read. Until then every path counts as slow. On Linux the
   * first read is synchronous (procfs, from the kernel's memory): it is in when this returns.
   */
  ready(): Promise<void> {
    if (this.#slow !== undefined) return Promise.resolve();
    if (this.#platform === 'linux') {
      this.#load(readLinuxMounts());
      return Promise.resolve();
    }
    this.#loading ??= readMountTable(this.#platform).then((mounts) => this.#load(mounts));
    return this.#loading;
  }

  /** Treats `dir` and everything below it as slow, whatever its file system says. */
  add(dir: string): void {
    if (!isAbsolute(dir)) throw new TypeError('A slow path must be absolute.');
    this.#extra.push(resolve(dir));
    if (this.#slow !== undefined) this.#load(undefined, false);
  }

  /** Forgets the operator's paths (tests). */
  clearAdded(): void {
    this.#extra.length = 0;
    if (this.#slow !== undefined) this.#load(undefined, false);
  }

  /** True when a path might be on a slow file system: no synchronous call should touch it. */
  isSlow(path: string): boolean {
    const slow = this.#current();
    if (slow === undefined) return true;
    if (this.#platform === 'win32' && /^(\\\\|\/\/)(?![?.][\\/])/.test(path)) return true;
    if (slow.length === 0) return false;
    const platform = this.#platform;
    if (this.#extra.some((dir) => isWithin(dir, path, platform))) return true;
    const nearest = this.#mounts.find((mount) => isWithin(mount.path, path, platform));
    return nearest?.slow ?? false;
  }

  /**
   * True when anything on this machine might be slow. A symbolic link can lead anywhere, so a
   * synchronous `realpath` is safe only when no slow file system is mounted at all.
   */
  get anySlow(): boolean {
    const slow = this.#current();
    return slow === undefined || slow.length > 0 || this.#platform === 'win32';
  }

  #current(): string[] | undefined {
    // Not read yet (an app made without the command line): on Linux the first read is cheap enough
    // to wait for, once; elsewhere it starts here, and every path is slow until it is in.
    // Later reads come from the timer (#keepFresh), never from a question.
    if (this.#slow === undefined) void this.ready();
    return this.#slow;
  }

  /** Reads the table again off the call path; the old one answers until the new one is in. */
  #refresh(): void {
    this.#refreshing = true;
    readMountTable(this.#platform)
      // A table that could not be read again keeps the one in hand, until the next tick.
      .then(
        (mounts) => mounts && this.#load(mounts),
        () => undefined,
      )
      .finally(() => {
        this.#refreshing = false;
      });
  }

  /**
   * Keeps the table fresh between questions too: a server idle for an hour must not answer its
   * next call from an hour-old table, where a share mounted meanwhile would count as local and be
   * touched synchronously. Unref'd, so it never keeps the process alive.
   */
  #keepFresh(): void {
    if (this.#timer || this.#platform === 'win32') return;
    const every = this.#platform === 'linux' ? REFRESH_MS : REFRESH_ELSEWHERE_MS;
    this.#timer = setInterval(() => {
      if (!this.#refreshing) this.#refresh();
    }, every);
    this.#timer.unref();
  }

  #load(mounts: Mount[] | undefined, fresh = true): void {
    if (fresh) {
      // An unreadable table on a platform that has one: assume nothing is slow rather than make
      // every call slow; the operator's --slow-path still applies.
      this.#mounts = relevant(mounts ?? [], this.#platform);
      this.#keepFresh();
    }
    this.#slow = [...this.#mounts.filter((mount) => mount.slow).map((mount) => mount.path), ...this.#extra];
  }
}

/**
 * The mounts that can change an answer, longest first: the slow ones, and local ones mounted
 * inside a slow one. Of two mounts on one point the later is on top and decides; kernel pseudo file
 * systems (/proc, /sys: systemd's binfmt_misc automount) never wait on anything.
 */
function relevant(mounts: readonly Mount[], platform: NodeJS.Platform): { path: string; slow: boolean }[] {
  const top = new Map<string, boolean>();
  for (const mount of mounts) top.set(mount.path, isSlowType(mount.type));
  const slow = [...top]
    .filter(([path, isSlow]) => isSlow && !/^\/(proc|sys)(\/|$)/.test(path))
    .map(([path]) => path);
  return [...top]
    .filter(([path, isSlow]) =>
      isSlow ? slow.includes(path) : slow.some((dir) => path !== dir && isWithin(dir, path, platform)),
    )
    .map(([path, isSlow]) => ({ path, slow: isSlow }))
    .sort((a, b) => b.path.length - a.path.length);
}

/** The process's slow paths: one mount table and one operator list serve every app in it. */
export const slowPaths = new SlowPaths();
