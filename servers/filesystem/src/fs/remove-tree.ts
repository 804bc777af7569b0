import { constants } from 'node:fs';
import { type FileHandle, lstat, open, readdir, rmdir, unlink } from 'node:fs/promises';
import { throwIfAborted } from '@mcpkit/core/progress';
import { hasProcFd, type PinnedDir } from './pinned.js';

const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Options of {@link removeTree}. */
export interface RemoveTreeOptions {
  signal?: AbortSignal | undefined;
  /** Succeed when the entry is already gone (cleaning up a temporary entry). */
  force?: boolean;
}

/**
 * Removes the entry `name` of the pinned directory `dir`: a file or link is unlinked (a link's
 * target is never touched), a directory is emptied depth-first and removed. Unlike `fs.rm`, each
 * directory is entered through a descriptor opened with O_NOFOLLOW relative to its parent's
 * descriptor, so a subdirectory swapped for a symbolic link while the tree is being removed is
 * unlinked as a link, never followed out of the roots. Where `/proc/self/fd` is missing, paths are
 * used and that race stays open.
 *
 * @example
 * ```ts
 * await withParentDir(entry.real, entry.display, (dir, name) => removeTree(dir, name));
 * ```
 */
export async function removeTree(
  dir: PinnedDir,
  name: string,
  options: RemoveTreeOptions = {},
): Promise<void> {
  try {
    await removeEntry(dir.entry(name), options.signal);
  } catch (error) {
    if (options.force && codeOf(error) === 'ENOENT') return;
    throw error;
  }
}

async function removeEntry(path: string, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  const stats = await lstat(path);
  throwIfAborted(signal);
  if (!stats.isDirectory()) {
    await unlink(path);
    return;
  }
  let handle: FileHandle | undefined;
  if (hasProcFd()) {
    try {
      handle = await open(path, DIR_FLAGS);
    } catch (error) {
      const code = codeOf(error);
      // Replaced by a link (or a file) since the lstat: remove that entry itself, never what it points to.
      if (code === 'ELOOP' || code === 'ENOTDIR') {
        await unlink(path);
        return;
      }
      throw error;
    }
  }
  try {
    const inside = handle ? `/proc/self/fd/${handle.fd}` : path;
    for (const child of await readdir(inside)) {
      await removeEntry(`${inside}/${child}`, signal);
    }
  } finally {
    await handle?.close();
  }
  throwIfAborted(signal);
  await rmdir(path);
}
