import { closeSync, type Dirent, openSync, readdirSync, readlinkSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { basename, sep } from 'node:path';
import { type StallScope, slowPaths, stallScopeOf } from '@mcpkit/core/roots';
import { DIR_FLAGS, hasProcFd } from './pinned.js';

/**
 * The entries of a directory the walk, the listings and completion enter. Its path was built from names the walk saw as
 * directories, but any of them may have been swapped for a symbolic link since, and `readdir` of the
 * path would then list a directory outside the roots. So on Linux the directory is opened without
 * following a link, its descriptor's real path must still be `path`, and the listing is read
 * through the descriptor. A directory that changed this way fails with ENOTDIR (counted as
 * unreadable, or reported for the walk root). Reading the descriptor's path back and closing it
 * touch no file system, so they run inline, like the O_PATH open: one trip to the thread pool per
 * directory (the listing), as in a plain walk.
 */
export async function listDirectory(path: string): Promise<Dirent[]> {
  if (!hasProcFd()) return readdir(path, { withFileTypes: true });
  // On a network or FUSE file system even the O_PATH open looks the path up there, and may stall:
  // it goes through the thread pool instead (see `@mcpkit/core/roots`'s slow paths).
  if (slowPaths.isSlow(path)) return listThroughPool(path);
  const fd = openVerified(path);
  try {
    return await readdir(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

async function listThroughPool(path: string): Promise<Dirent[]> {
  const handle = await open(path, DIR_FLAGS);
  try {
    verify(handle.fd, path);
    return await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true });
  } finally {
    // Through the handle: a number closed behind its back would be closed again when it is collected.
    await handle.close();
  }
}

/** {@link listDirectory} without leaving the thread: the same checks, the listing read inline. */
export function listDirectorySync(path: string): Dirent[] {
  if (!hasProcFd()) return readdirSync(path, { withFileTypes: true });
  const fd = openVerified(path);
  try {
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

// An O_PATH open does no I/O on a local disk (no permission or content check): synchronous, it
// costs microseconds, where a trip through the thread pool costs more than the call itself.
function openVerified(path: string): number {
  const fd = openSync(path, DIR_FLAGS);
  try {
    verify(fd, path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

// Reading the descriptor's path back from /proc asks the kernel, never the file system.
function verify(fd: number, path: string): void {
  const expected = path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
  if (readlinkSync(`/proc/self/fd/${fd}`) !== expected) {
    throw Object.assign(new Error('The directory changed while it was being listed.'), { code: 'ENOTDIR' });
  }
}

/** A listing slower than this was real I/O (a cold cache, a network file system), not a cached read. */
const SLOW_LISTING_MS = 2;
/** Slow listings a walk tolerates inline: one may be a pause of the process (GC), not the disk. */
const SLOW_LISTINGS = 3;

/**
 * How one walk reads its listings. Inline at first: a cached directory lists in tens of
 * microseconds, less than the trip through libuv's thread pool an asynchronous `readdir` takes
 * (2000 cached listings: about 40 ms inline, 135 ms one `readdir` after another), and a walk
 * yields to the event loop every few hundred entries anyway. Once a few listings have taken longer
 * than {@link SLOW_LISTING_MS}, the disk is doing real work: from then on listings run on the
 * thread pool (`sync` turns false, and the walk reads several ahead), so the server stays
 * responsive while it waits.
 */
export class WalkLister {
  sync: boolean;
  /** The walk is on a network or FUSE file system: never inline, and nothing read ahead. */
  readonly onSlowMount: boolean;
  #slow = 0;

  readonly #scope: StallScope | undefined;

  /** `signal`: the call's; a slow mount the walk comes across joins that call's stall guard. */
  constructor(root: string, signal?: AbortSignal) {
    this.onSlowMount = slowPaths.isSlow(root);
    this.sync = !this.onSlowMount;
    this.#scope = stallScopeOf(signal);
  }

  /**
   * Whether the walk may list `path` ahead of time. Not on a network or FUSE mount: there each
   * listing in flight may hold a thread-pool thread for as long as the mount stalls.
   */
  mayReadAhead(path: string): boolean {
    return !this.onSlowMount && !slowPaths.isSlow(path);
  }

  list(path: string): Dirent[] | Promise<Dirent[]> {
    // A network or FUSE file system may be mounted below a local root: never inline there.
    if (slowPaths.isSlow(path)) return this.#listSlow(path);
    if (!this.sync) return listDirectory(path);
    const start = performance.now();
    try {
      return listDirectorySync(path);
    } finally {
      if (performance.now() - start > SLOW_LISTING_MS && ++this.#slow >= SLOW_LISTINGS) this.sync = false;
    }
  }
  // A walk from a local root that crosses onto a network or FUSE mount: under the call's deadline
  // and slot from there on, named by the directory's own name (never a host path).
  async #listSlow(path: string): Promise<Dirent[]> {
    await this.#scope?.enter(path, basename(path));
    return listDirectory(path);
  }
}
