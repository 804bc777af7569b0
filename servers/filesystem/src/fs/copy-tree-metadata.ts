import type { CopiedEntry, CopiedTree } from './copy-tree.js';
import { codeOf } from './errno-code.js';
import { changedError, type PinnedDir } from './pinned.js';
import { pinChild, setDirMode } from './tree-dirs.js';

/**
 * Gives every directory of a finished tree copy (see `copy-tree.ts`) the mode and times of its
 * original, deepest first: a directory made read-only, or closed to its owner, is then never one
 * that still has to be entered or written. Each directory is reached by descriptor from the top of
 * the copy (`topName` in the pinned `to`) and must be the one the copy made (device and inode), so
 * a directory swapped for a link to something outside since it was filled fails the move instead
 * of lending that thing its mode. `display` names an entry of the copy (`relative` from its top) in
 * errors. Run before the copy is renamed into place; a failure here leaves it to be removed.
 */
export async function applyDirectoryModes(
  to: PinnedDir,
  topName: string,
  made: CopiedTree,
  display: (relative: string) => string,
): Promise<void> {
  if (!made.top?.dir || made.toDev === undefined) return;
  await apply(to, topName, made.top, '', made.toDev, display);
}

async function apply(
  parent: PinnedDir,
  name: string,
  entry: CopiedEntry,
  relative: string,
  dev: number,
  display: (relative: string) => string,
): Promise<void> {
  if (!entry.dir) return;
  let dir: PinnedDir;
  try {
    dir = await pinChild(parent, name, display(relative));
  } catch (error) {
    // Only the copy itself could have taken it away.
    if (codeOf(error) === 'ENOENT') throw changedError(display(relative));
    throw error;
  }
  try {
    for (const child of entry.dir.entries) {
      if (!child.dir) continue;
      const sub = relative === '' ? child.name : `${relative}/${child.name}`;
      await apply(dir, child.name, child, sub, dev, display);
    }
    await setDirMode(dir, { dev, ino: entry.to }, entry.dir, display(relative));
  } finally {
    await dir.close();
  }
}
