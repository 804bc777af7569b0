import { randomBytes } from 'node:crypto';
import {
  close,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsync,
  lstatSync,
  open as openCallback,
  openSync,
  type Stats,
  writeSync,
} from 'node:fs';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '@mcpkit/core/errors';
import { slowPaths } from '@mcpkit/core/roots';
import { O_PATH, PinnedDir } from './pinned.js';

export interface AtomicWriteOptions {
  /** File mode for a new file; an existing file keeps its own. Default 0o644 (less the umask). */
  mode?: number;
  signal?: AbortSignal;
  /** Safe name of the file for errors; default its base name. */
  display?: string;
  /**
   * Runs once the new content is safely on disk, right before it replaces the target; throwing
   * (say, because the target changed meanwhile) cancels the write and leaves the target as it is.
   */
  beforeReplace?: () => void | Promise<void>;
}

/**
 * The permission bits a rewritten file keeps: setuid and setgid are dropped, as the kernel drops
 * them when anyone writes to such a file; new content must not run with the owner's rights.
 */
export const KEPT_MODE_BITS = 0o777;

/**
 * Content up to this size, on a local disk, is written with synchronous calls but for the fsync and
 * the rename: creating, filling and closing a small temporary file costs a few microseconds, less
 * than a thread-pool round trip, while those two wait for the disk and stay off the event loop.
 */
const SMALL_WRITE_BYTES = 64 * 1024;

/** A new file, never one already there and never through a link planted at its name. */
export const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
const HOLD_FLAGS = O_PATH | (constants.O_NOFOLLOW ?? 0);

const fsyncFd = promisify(fsync);
const openFd = promisify(openCallback);

/**
 * Writes a whole file atomically: a temporary file with a random name beside the target, created
 * with O_EXCL (a planted file or link with that name makes it fail, never redirects it), written,
 * synced, given the target's mode, then renamed over the target. A reader sees the old content or
 * the new, never half; a crash leaves the old file. Renaming also replaces the directory entry, so
 * a hard link to a file outside the roots is broken rather than written through, and a symlink at
 * the target is replaced, not followed. The directory is pinned (see `pinned.ts`), so one swapped
 * for a link after the path was checked fails the write instead of redirecting it.
 *
 * @example
 * ```ts
 * await atomicWrite(target.real, text);
 * ```
 */
export async function atomicWrite(real: string, data: string | Uint8Array, options: AtomicWriteOptions = {}) {
  const display = options.display ?? basename(real);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const small = bytes.byteLength <= SMALL_WRITE_BYTES && !slowPaths.isSlow(real);
  const dir = small
    ? PinnedDir.openSync(dirname(real), display)
    : await PinnedDir.open(dirname(real), display);
  let old: Existing | undefined;
  try {
    const name = basename(real);
    const target = dir.entry(name);
    old = small ? holdSync(target) : await hold(target);
    const mode = modeFor(old?.stats, options, display);
    options.signal?.throwIfAborted();
    const temp = dir.entry(`.${name}.${randomBytes(8).toString('hex')}.tmp`);
    // Opened before the cleanup below: when O_EXCL fails, the name is someone else's to keep.
    const file = small ? openSync(temp, CREATE_FLAGS, mode) : await open(temp, CREATE_FLAGS, mode);
    try {
      if (typeof file === 'number') await fillSmall(file, bytes, mode);
      else await fillLarge(file, bytes, mode);
      options.signal?.throwIfAborted();
      await options.beforeReplace?.();
      // The check may have waited on a stalled mount: a call given up meanwhile renames nothing.
      options.signal?.throwIfAborted();
      // Through the thread pool even when small: right after an fsync, a rename can wait
      // milliseconds for the journal, which must not hold up every other call.
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  } finally {
    if (old?.fd !== undefined) release(old.fd);
    await dir.close();
  }
}

/** The entry a write replaces: what it is, and a handle that keeps its file alive (see {@link holdSync}). */
interface Existing {
  stats: Stats;
  fd: number | undefined;
}

/**
 * What is at `target` now (as `lstat` sees it: a link is not followed), or `undefined`. On Linux
 * the entry is also held by an O_PATH descriptor, which does no I/O. Why: the last reference to a
 * replaced file frees its blocks, and a rename that drops that reference does the freeing itself,
 * measured at three times the cost of the rename, right before the answer. Held, the old file is
 * freed when the handle is released, after the rename and away from the answer.
 */
function holdSync(target: string): Existing | undefined {
  if (!O_PATH) {
    const stats = lstatSync(target, { throwIfNoEntry: false });
    return stats && { stats, fd: undefined };
  }
  let fd: number;
  try {
    fd = openSync(target, HOLD_FLAGS);
  } catch (error) {
    return noEntry(error);
  }
  return statHeld(fd);
}

/** {@link holdSync} through the thread pool, for large content or a slow file system. */
async function hold(target: string): Promise<Existing | undefined> {
  if (!O_PATH) {
    const stats = await lstat(target).catch(noEntry);
    return stats && { stats, fd: undefined };
  }
  let fd: number;
  try {
    fd = await openFd(target, HOLD_FLAGS);
  } catch (error) {
    return noEntry(error);
  }
  return statHeld(fd);
}

// fstat of a descriptor reads the inode it already holds: no path lookup, no disk.
function statHeld(fd: number): Existing {
  try {
    return { stats: fstatSync(fd), fd };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Lets go of the replaced file once the answer is on its way (the next turn of the event loop), in
 * the thread pool and not awaited: freeing its blocks then delays no one.
 */
function release(fd: number): void {
  setImmediate(() => close(fd, () => {}));
}

function noEntry(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  return undefined;
}

/** The mode the new file gets: the existing file's (less setuid/setgid), else the one asked for. */
function modeFor(existing: Stats | undefined, options: AtomicWriteOptions, display: string): number {
  if (existing?.isDirectory())
    throw new UserError(`"${display}" is a directory, so it cannot be written as a file.`);
  return existing?.isFile() ? existing.mode & KEPT_MODE_BITS : (options.mode ?? 0o644);
}

/**
 * Fills the temporary file, gives it its mode (the umask narrowed the one it was created with),
 * syncs it to disk and closes it.
 */
async function fillSmall(fd: number, bytes: Uint8Array, mode: number): Promise<void> {
  try {
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
    fchmodSync(fd, mode);
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** {@link fillSmall} through the thread pool, for large content or a slow file system. */
async function fillLarge(handle: FileHandle, bytes: Uint8Array, mode: number): Promise<void> {
  try {
    await handle.writeFile(bytes);
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
