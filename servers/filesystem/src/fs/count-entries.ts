import type { Stats } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { UserError } from '@mcpkit/core/errors';
import { checkpoint } from '@mcpkit/core/progress';
import { codeOf } from './errno-code.js';
import { PinnedDir } from './pinned.js';
import { below, confirmByPath, statOf } from './tree-dirs.js';
import type { TreeGuard } from './tree-guard.js';

/** Options of {@link countEntries}. */
export interface CountOptions {
  /**
   * The refusal for a special file (FIFO, socket, device) at the safe name given: a move to another
   * file system cannot copy one, and learns of it here before it copies anything. Default: counted.
   */
  refuseSpecial?: (display: string) => UserError;
}

interface Count {
  n: number;
  readonly cap: number;
  readonly tick: () => Promise<void>;
}

/**
 * Counts the entries under the directory `top` (a checked real path): files, directories and
 * links at every depth, the directory itself not included. It stops once the count passes `cap`,
 * so a huge tree cannot stall the question it is counted for. Links are counted, never followed.
 * Each directory goes through `guard` first: a slow mount below joins the call's deadline, a
 * mount point stops the count with the guard's sentence, and a given-up call stops. A
 * subdirectory that vanishes while it is counted is counted as listed and not entered.
 *
 * Directories are entered by descriptor, each relative to its parent's (see `tree-dirs.ts`), so a
 * directory on the way swapped for a link cannot lead the count elsewhere, and a tree deeper than
 * a path can name is counted all the same. The descriptors held are those of the directories on
 * the way down, one per level.
 *
 * @example
 * ```ts
 * const guard = await TreeGuard.open(entry, { signal, action: 'delete', dev: entry.stats.dev });
 * const n = await countEntries(entry.real, 100_000, guard); // 100_001 means "more than 100000"
 * ```
 */
export async function countEntries(
  top: string,
  cap: number,
  guard: TreeGuard,
  options: CountOptions = {},
): Promise<number> {
  const count: Count = { n: 0, cap, tick: checkpoint(guard.signal) };
  try {
    await guard.enter(top, '');
    const dir = await PinnedDir.open(top, guard.display(''));
    try {
      const stats = await statOf(dir);
      guard.checkDirectory(stats, top, '');
      await countIn(dir, stats, '', guard, count, options);
    } finally {
      await dir.close();
    }
  } catch (error) {
    throw guard.explain(error);
  }
  return count.n;
}

async function countIn(
  dir: PinnedDir,
  identity: Stats,
  relative: string,
  guard: TreeGuard,
  count: Count,
  options: CountOptions,
): Promise<void> {
  const subdirs: string[] = [];
  // The listing streams, so a directory of millions of entries is not read whole for a count
  // that stops at the cap.
  for await (const dirent of await opendir(dir.path)) {
    await count.tick();
    guard.step();
    if (++count.n > count.cap) return;
    // Dirent types come from the directory itself, so a link to a directory is not a directory here.
    if (dirent.isDirectory()) subdirs.push(dirent.name);
    else if (options.refuseSpecial && !dirent.isFile() && !dirent.isSymbolicLink()) {
      throw options.refuseSpecial(guard.display(below(relative, dirent.name)));
    }
  }
  // Without /proc the listing went by path: it must have been of this very directory.
  await confirmByPath(dir, identity, guard.display(relative));
  for (const name of subdirs) {
    if (count.n > count.cap) return;
    const sub = below(relative, name);
    const subReal = join(dir.real, name);
    await guard.enter(subReal, sub);
    const held = await enter(dir, name);
    if (!held) continue;
    try {
      guard.checkDirectory(held.stats, subReal, sub);
      await countIn(held.dir, held.stats, sub, guard, count, options);
    } finally {
      await held.dir.close();
    }
  }
}

/** The subdirectory `name` of `dir`, held; none when it is gone or is no longer a directory. */
async function enter(dir: PinnedDir, name: string): Promise<{ dir: PinnedDir; stats: Stats } | undefined> {
  let sub: PinnedDir;
  try {
    sub = await dir.child(name);
  } catch (error) {
    // Replaced by a file or a link, or removed, since it was listed: counted already, not entered.
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const stats = await statOf(sub);
    if (stats.isDirectory()) return { dir: sub, stats };
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') {
      await sub.close();
      throw error;
    }
  }
  await sub.close();
  return undefined;
}
