import { readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CopiedEntry, CopiedTree } from './copy-tree.js';
import { codeOf } from './errno-code.js';
import { lstatIfAny } from './existing.js';
import type { PinnedDir } from './pinned.js';
import { below, ignoreGone, sameEntry, statOf } from './tree-dirs.js';
import type { TreeGuard } from './tree-guard.js';

/** Entries a move left in the old place: how many, and the first few by their safe names. */
export interface Kept {
  count: number;
  shown: string[];
}

/** Names of kept entries an answer lists; the rest are only counted. */
const SHOWN = 5;

/**
 * Removes the originals of a tree copy whose copy is in place (the directory `name` of the pinned
 * `from`, as recorded in `made`): only entries that are still the very ones copied (device and
 * inode) go. One that appeared in the tree while it was copied, or was replaced meanwhile, was
 * never copied: it stays, with the directories that hold it, and is named in the result. The walk
 * goes by descriptor, relative to each directory held, and through `guard` (a slow mount's
 * deadline, the call given up); the caller has committed the guard, so a cancel no longer stops it.
 *
 * An entry is looked at, then unlinked by its name: one swapped in within that instant would go in
 * its place (Node has no way to unlink a given inode).
 */
export async function removeCopied(
  from: PinnedDir,
  name: string,
  made: CopiedTree,
  guard: TreeGuard,
): Promise<Kept> {
  const kept: Kept = { count: 0, shown: [] };
  if (made.top) await removeOriginal(from, name, made.top, '', made.fromDev, guard, kept);
  return kept;
}

function keep(kept: Kept, display: string): void {
  kept.count++;
  if (kept.shown.length < SHOWN) kept.shown.push(display);
}

async function removeOriginal(
  parent: PinnedDir,
  name: string,
  entry: CopiedEntry,
  relative: string,
  dev: number,
  guard: TreeGuard,
  kept: Kept,
): Promise<void> {
  await guard.enter(join(parent.real, name), relative);
  const path = parent.entry(name);
  const stats = await lstatIfAny(path);
  // Gone already: someone else removed it meanwhile.
  if (!stats) return;
  const original = { dev, ino: entry.from };
  if (!sameEntry(stats, original)) return keep(kept, guard.display(relative));
  if (!entry.dir) {
    await ignoreGone(unlink(path));
    guard.step();
    return;
  }
  let dir: PinnedDir;
  try {
    dir = await parent.child(name);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return;
    // Swapped for a link or a file since the lstat: not what was copied.
    if (code === 'ELOOP' || code === 'ENOTDIR') return keep(kept, guard.display(relative));
    throw error;
  }
  try {
    const now = await statOf(dir);
    if (!sameEntry(now, original)) return keep(kept, guard.display(relative));
    for (const child of entry.dir.entries) {
      await removeOriginal(dir, child.name, child, below(relative, child.name), dev, guard, kept);
    }
    guard.check();
    await removeEmptied(path, dir, entry, relative, guard, kept);
  } finally {
    await dir.close();
  }
}

/** Removes the directory at `path` (held as `dir`) whose copied entries are gone; what is left names itself. */
async function removeEmptied(
  path: string,
  dir: PinnedDir,
  entry: CopiedEntry,
  relative: string,
  guard: TreeGuard,
  kept: Kept,
): Promise<void> {
  try {
    await rmdir(path);
    guard.step();
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return;
    // Became a mount point after the copy: what is mounted there was never copied.
    if (code === 'EBUSY') return keep(kept, guard.display(relative));
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    // Copied entries still here were named where they were met; the others appeared meanwhile.
    const copied = new Set(entry.dir?.entries.map((child) => child.name));
    for (const left of await readdir(dir.path)) {
      if (!copied.has(left)) keep(kept, guard.display(below(relative, left)));
    }
  }
}
