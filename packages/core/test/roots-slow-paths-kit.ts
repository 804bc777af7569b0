/**
 * Stand-in mount tables for the SlowPaths tests (roots-slow-paths*.test.ts), in the text the
 * system gives, so mount-table.ts still parses them, and the `node:fs` that hands them out. Nothing
 * is imported here: the `node:fs` mock loads this file, which must not load `node:fs` in turn.
 */

/** Lines of /proc/self/mountinfo for the given mount points and types. */
export function mountinfo(mounts: [string, string][]): string {
  return mounts
    .map(
      ([point, type], i) =>
        `${30 + i} 1 0:${40 + i} / ${point.replaceAll(' ', '\\040')} rw,relatime shared:${i + 1} - ${type} src rw\n`,
    )
    .join('');
}

/** A Linux machine with an NFS share, a local cache inside it, an sshfs mount and an automount point. */
export const LINUX: [string, string][] = [
  ['/', 'ext4'],
  ['/mnt/nfs', 'nfs4'],
  ['/mnt/nfs/cache', 'tmpfs'],
  ['/home/alice/My Drive', 'fuse.sshfs'],
  ['/net', 'autofs'],
];

/** What the stand-in `readFileSync` answers, and what it counts; set by each test. */
export interface MountinfoStand {
  /** The text of /proc/self/mountinfo (an Error: the read fails); unset, the real file is read. */
  mountinfo: string | Error | undefined;
  /** Reads answered with the stand-in. */
  reads: number;
  /** Reads the caller waited for, counted only when the stand holds this field. */
  syncReads?: number;
}

/**
 * `real` with a `readFileSync` that answers /proc/self/mountinfo from `stand`, for a test file's
 * `vi.mock('node:fs')` factory (the mock itself must stay in the test file, where it is hoisted).
 */
export function fsWithStandIn(real: typeof import('node:fs'), stand: MountinfoStand) {
  const original = real.readFileSync as (...args: unknown[]) => unknown;
  const readFileSync = (file: unknown, ...rest: unknown[]): unknown => {
    if (file !== '/proc/self/mountinfo' || stand.mountinfo === undefined) return original(file, ...rest);
    stand.reads += 1;
    if (stand.syncReads !== undefined) stand.syncReads += 1;
    if (stand.mountinfo instanceof Error) throw stand.mountinfo;
    return stand.mountinfo;
  };
  return { ...real, default: { ...real, readFileSync }, readFileSync };
}
