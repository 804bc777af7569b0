import { closeSync, type Dirent, openSync, readlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { sep } from 'node:path';
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
  // An O_PATH open does no I/O (no permission or content check): synchronous, it costs
  // microseconds, where a trip through the thread pool costs more than the call itself.
  const fd = openSync(path, DIR_FLAGS);
  try {
    const expected = path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
    if (readlinkSync(`/proc/self/fd/${fd}`) !== expected) {
      throw Object.assign(new Error('The directory changed while it was being listed.'), { code: 'ENOTDIR' });
    }
    return await readdir(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}
