import { rmdir, unlink } from 'node:fs/promises';
import type { CopiedEntry, CopiedTree } from './copy-tree.js';
import { lstatIfAny } from './existing.js';
import type { PinnedDir } from './pinned.js';
import { sameEntry, setDirMode } from './tree-dirs.js';

/**
 * Removes what a failed tree copy made (`made`, its top `topName` in the pinned `to`), and only
 * that: every entry must still be the one the copy made (device and inode) to be removed, so
 * whatever someone put there meanwhile, or swapped in for an entry, is left. Each directory is
 * made writable for its owner first, through its descriptor: the copy may have failed after some
 * modes were set (a read-only directory could not be emptied). Returns whether everything is gone;
 * a directory holding something the copy did not make stays.
 */
export async function removeCopy(to: PinnedDir, topName: string, made: CopiedTree): Promise<boolean> {
  if (made.toDev === undefined || made.top === undefined) {
    // Made, perhaps, but never recorded: an empty directory is all it can be, and rmdir takes no other.
    await rmdir(to.entry(topName)).catch(() => {});
    return true;
  }
  return removeMade(to, topName, made.top, made.toDev);
}

async function removeMade(
  parent: PinnedDir,
  name: string,
  entry: CopiedEntry,
  dev: number,
): Promise<boolean> {
  const path = parent.entry(name);
  const stats = await lstatIfAny(path);
  if (!stats) return true;
  const own = { dev, ino: entry.to };
  if (!sameEntry(stats, own)) return false;
  if (!entry.dir) {
    await unlink(path);
    return true;
  }
  let dir: PinnedDir;
  try {
    dir = await parent.child(name);
  } catch {
    return false;
  }
  let whole = true;
  try {
    await setDirMode(dir, own, { mode: 0o700 }, name);
    for (const child of entry.dir.entries) {
      // One entry that cannot go does not keep the others.
      whole = (await removeMade(dir, child.name, child, dev).catch(() => false)) && whole;
    }
  } catch {
    whole = false;
  } finally {
    await dir.close();
  }
  if (!whole) return false;
  try {
    await rmdir(path);
    return true;
  } catch {
    return false;
  }
}
