import type { Dirent } from 'node:fs';
import { type FileHandle, lstat, open, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { codeOf } from './errno-code.js';
import { lstatIfAny } from './existing.js';
import { hasProcFd, type PinnedDir } from './pinned.js';
import { below, HANDLE_FLAGS, ignoreGone } from './tree-dirs.js';
import { TreeGuard } from './tree-guard.js';

/** Options of {@link removeTree}. */
export interface RemoveTreeOptions {
  /** The guard the caller made for this tree (to count it first); default a new one for a delete. */
  guard?: TreeGuard;
  /** Without `guard`: the call's signal, and the entry's safe name for messages (default its name). */
  signal?: AbortSignal | undefined;
  display?: string;
}

/**
 * Removes the entry `name` of the pinned directory `dir`: a file or link is unlinked (a link's
 * target is never touched), a directory is emptied depth-first and removed. Unlike `fs.rm`, each
 * directory is entered through a descriptor opened with O_NOFOLLOW relative to its parent's
 * descriptor, so a subdirectory swapped for a symbolic link while the tree is being removed is
 * unlinked as a link, never followed out of the roots. Where `/proc/self/fd` is missing, paths are
 * used and that race stays open.
 *
 * It never crosses onto another mount (see {@link TreeGuard}): in each directory, every
 * subdirectory is checked before any entry there is removed, so a mount point stops the removal
 * with the directory that holds it still whole. Entries that vanish meanwhile are taken as removed.
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
  const real = join(dir.real, name);
  const guard =
    options.guard ??
    (await TreeGuard.open(
      { real, display: options.display ?? name },
      { signal: options.signal, action: 'delete' },
    ));
  try {
    await removeEntry(dir.entry(name), real, '', guard);
  } catch (error) {
    throw guard.explain(error);
  }
}

/** Removes the entry at `path` (its real path `real`, `relative` from the top), whatever it is. */
async function removeEntry(path: string, real: string, relative: string, guard: TreeGuard): Promise<void> {
  await guard.enter(real, relative);
  const stats = await lstat(path);
  guard.check();
  if (!stats.isDirectory()) {
    await unlink(path);
    guard.changed = true;
    return;
  }
  guard.checkDirectory(stats, real, relative);
  await removeDirectory(path, real, relative, guard);
}

async function removeDirectory(
  path: string,
  real: string,
  relative: string,
  guard: TreeGuard,
): Promise<void> {
  let handle: FileHandle | undefined;
  if (hasProcFd()) {
    try {
      handle = await open(path, HANDLE_FLAGS);
    } catch (error) {
      const code = codeOf(error);
      // Replaced by a link (or a file) since the lstat: remove that entry itself, never what it points to.
      if (code === 'ELOOP' || code === 'ENOTDIR') {
        await unlink(path);
        guard.changed = true;
        return;
      }
      throw error;
    }
  }
  try {
    const inside = handle ? `/proc/self/fd/${handle.fd}` : path;
    const entries = await readdir(inside, { withFileTypes: true });
    const child = (entry: Dirent) => ({
      path: `${inside}/${entry.name}`,
      real: `${real}/${entry.name}`,
      relative: below(relative, entry.name),
    });
    // Every subdirectory is looked at before anything here is removed.
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = child(entry);
      await guard.enter(sub.real, sub.relative);
      const stats = await lstatIfAny(sub.path);
      if (stats?.isDirectory()) guard.checkDirectory(stats, sub.real, sub.relative);
      guard.step();
    }
    for (const entry of entries) {
      const sub = child(entry);
      if (entry.isDirectory()) await ignoreGone(removeEntry(sub.path, sub.real, sub.relative, guard));
      else await removeFile(sub.path, sub.real, sub.relative, guard);
      guard.step();
    }
  } finally {
    await handle?.close();
  }
  guard.check();
  try {
    await rmdir(path);
  } catch (error) {
    // Mounted on after it was checked (the top itself is refused before the question).
    if (codeOf(error) === 'EBUSY') throw guard.mountedMeanwhile(relative);
    throw error;
  }
  guard.changed = true;
}

/** Unlinks what the listing said is not a directory; one that has become a directory is removed as one. */
async function removeFile(path: string, real: string, relative: string, guard: TreeGuard): Promise<void> {
  guard.check();
  try {
    await unlink(path);
    guard.changed = true;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return;
    // Linux says EISDIR, macOS EPERM: look again, and let a real permission error stand.
    if (code !== 'EISDIR' && code !== 'EPERM') throw error;
    await ignoreGone(removeEntry(path, real, relative, guard));
  }
}
