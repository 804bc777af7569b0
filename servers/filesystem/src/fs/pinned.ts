import {
  closeSync,
  constants,
  existsSync,
  open as openCallback,
  openSync,
  readlinkSync,
  type Stats,
} from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '@mcpkit/core/errors';
import { codeOf } from './errno-code.js';

// A bare descriptor, not a FileHandle: an O_PATH descriptor does no I/O, so it is closed inline
// rather than with another trip through the thread pool.
const openFd = promisify(openCallback);

/**
 * Closing the window between checking a path and using it (the parent-swap race behind the official server's advisories).
 * A path is resolved and checked first; if a directory on it is then renamed away and replaced by
 * a symbolic link to somewhere else, a plain `open`, `rename`, `mkdir` or `rm` of the same string
 * would follow that link out of the allowed directories. Node has no `openat`, so on Linux the
 * directory is opened once (`O_PATH | O_DIRECTORY | O_NOFOLLOW`), the descriptor's real path is
 * read back from `/proc/self/fd/N` and compared with the checked path, and every later operation
 * names its entry as `/proc/self/fd/N/<name>`: the kernel resolves that from the directory that was
 * opened and checked, whatever has been renamed or linked since.
 *
 * Where `/proc/self/fd` is missing (other platforms, or Linux without /proc) the plain path is used
 * and the window stays open; see the README's security notes.
 */

/** Linux's O_PATH: a handle to an entry itself, which needs no permission on it and does no I/O; 0 elsewhere. */
export const O_PATH = process.platform === 'linux' ? 0o10000000 : 0;
/** Opens a directory itself, never through a symbolic link (shared with the verified listing). */
export const DIR_FLAGS =
  (O_PATH || constants.O_RDONLY) | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

let procFd: boolean | undefined;

/** True where a descriptor's path can be read back and resolved through: Linux with /proc mounted. */
export function hasProcFd(): boolean {
  procFd ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFd;
}

/** Where an open descriptor is now, or `undefined` where that cannot be known (no /proc). */
async function fdRealPath(fd: number): Promise<string | undefined> {
  if (!hasProcFd()) return undefined;
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The refusal when a checked path no longer leads where it did: a directory was moved or linked. */
export function changedError(display: string): UserError {
  return new UserError(
    `"${display}" changed on disk while it was being used (a directory on its path was moved or replaced by a symbolic link), so nothing was done with it; check it and try again.`,
  );
}

/** A failed open of a directory to pin: gone stays ENOENT for the caller; a link or a file in its place is a swap. */
function openDirError(error: unknown, display: string): unknown {
  const code = codeOf(error);
  return code === 'ENOTDIR' || code === 'ELOOP' ? changedError(display) : error;
}

/**
 * A directory held open by descriptor, so its entries can be named without going through its
 * path again. Always `close()` it (or use {@link withPinnedDir}).
 */
export class PinnedDir {
  #closed = false;

  private constructor(
    /** The checked real path of the directory. */
    readonly real: string,
    private readonly fd: number | undefined,
  ) {}

  /**
   * Opens the directory at `real` (a checked real path) and confirms it is still there: not
   * replaced by a link, not reached through a directory that was. `display` names it in errors.
   * The open walks the path (I/O on a network file system) and goes through the thread pool;
   * reading the descriptor's path back from /proc touches no file system, so it runs inline.
   */
  static async open(real: string, display: string): Promise<PinnedDir> {
    if (!hasProcFd()) return new PinnedDir(real, undefined);
    let fd: number;
    try {
      fd = await openFd(real, DIR_FLAGS);
    } catch (error) {
      throw openDirError(error, display);
    }
    return PinnedDir.#confirmed(real, fd, display);
  }

  /**
   * {@link PinnedDir.open} without a thread-pool round trip, for a caller that already knows the
   * path is on a local disk, where walking it is a dentry-cache lookup that costs less than the trip.
   */
  static openSync(real: string, display: string): PinnedDir {
    if (!hasProcFd()) return new PinnedDir(real, undefined);
    let fd: number;
    try {
      fd = openSync(real, DIR_FLAGS);
    } catch (error) {
      throw openDirError(error, display);
    }
    return PinnedDir.#confirmed(real, fd, display);
  }

  static #confirmed(real: string, fd: number, display: string): PinnedDir {
    let now: string | undefined;
    try {
      now = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      now = undefined;
    }
    if (now !== real) {
      closeSync(fd);
      throw changedError(display);
    }
    return new PinnedDir(real, fd);
  }

  /**
   * The subdirectory `name`, pinned in turn: opened relative to this descriptor without following a
   * link, so it is that very subdirectory. Errors are the raw ones (ENOENT, ENOTDIR for a file or a
   * link), for the caller to explain.
   */
  async child(name: string): Promise<PinnedDir> {
    if (this.fd === undefined) return new PinnedDir(join(this.real, name), undefined);
    return new PinnedDir(join(this.real, name), await openFd(this.entry(name), DIR_FLAGS));
  }

  /** A path to the entry `name` of this very directory (a single name, no separators). */
  entry(name: string): string {
    return this.fd === undefined ? join(this.real, name) : `/proc/self/fd/${this.fd}/${name}`;
  }

  /** The path of the directory itself, for calls that take a directory (readdir). */
  get path(): string {
    return this.fd === undefined ? this.real : `/proc/self/fd/${this.fd}`;
  }

  async close(): Promise<void> {
    // Closing an O_PATH descriptor flushes nothing. Only once: the number may be reused after.
    if (this.fd === undefined || this.#closed) return;
    this.#closed = true;
    closeSync(this.fd);
  }
}

/** Runs `fn` with the directory that holds `real` pinned; `display` names `real` in errors. */
export async function withParentDir<T>(
  real: string,
  display: string,
  fn: (dir: PinnedDir, name: string) => Promise<T>,
): Promise<T> {
  const dir = await PinnedDir.open(dirname(real), display);
  try {
    return await fn(dir, basename(real));
  } finally {
    await dir.close();
  }
}

/**
 * Fails unless the entry at `path` is still the one `expected` describes (same device and inode):
 * what was checked, and what the user agreed to, is what gets moved or deleted.
 */
export async function assertSameEntry(path: string, expected: Stats, display: string): Promise<void> {
  let now: Stats;
  try {
    now = await lstat(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw changedError(display);
    throw error;
  }
  if (now.dev !== expected.dev || now.ino !== expected.ino) throw changedError(display);
}

/**
 * Fails unless the opened descriptor `fd` is the file at `real`: reading through a directory that
 * was swapped for a link after the check would otherwise read a file outside the roots. A no-op
 * where the descriptor's path cannot be read back.
 */
export async function assertOpenedAt(fd: number, real: string, display: string): Promise<void> {
  if (!hasProcFd()) return;
  const now = await fdRealPath(fd);
  if (now !== real) throw changedError(display);
}

/** {@link assertOpenedAt} without a thread-pool round trip: reading a /proc link does no disk I/O. */
export function assertOpenedAtSync(fd: number, real: string, display: string): void {
  if (!hasProcFd()) return;
  let now: string | undefined;
  try {
    now = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    now = undefined;
  }
  if (now !== real) throw changedError(display);
}
