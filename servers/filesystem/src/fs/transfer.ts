import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { throwIfAborted } from '@mcpkit/core/progress';
import { stallScopeOf } from '@mcpkit/core/roots';
import { KEPT_MODE_BITS } from './atomic-write.js';
import { CREATE_FLAGS, copyBytes, copyTree } from './copy-tree.js';
import { assertSameEntry, type PinnedDir, withParentDir } from './pinned.js';
import { removeTree } from './remove-tree.js';
import { openRegularFile } from './safe-open.js';
import { TreeGuard } from './tree-guard.js';

/** A random name for a temporary sibling of `name`: unpredictable, so nothing can be planted there first. */
function tempName(name: string): string {
  return `.${name}.${randomBytes(8).toString('hex')}.tmp`;
}

/** Options of {@link copyFileAtomic}. */
export interface CopyOptions {
  /** Mode of the copy; default the source's permission bits (without setuid/setgid, as `cp` does). */
  mode?: number;
  signal?: AbortSignal;
  /** Safe name of the target for errors; default its base name. */
  display?: string;
}

/**
 * Copies a regular file the way `atomicWrite` writes one: the source is opened without following
 * links (and confirmed to be the checked file), streamed into a temporary file with a random name
 * created with O_EXCL beside the target in its pinned directory, synced, then renamed over the
 * target. A symlink planted at the target is replaced, never followed, and a reader never sees half
 * a copy. Returns the bytes copied.
 *
 * @example
 * ```ts
 * const bytes = await copyFileAtomic({ real: src.real, display: src.display }, dest.real);
 * ```
 */
export async function copyFileAtomic(
  source: { real: string; display: string },
  target: string,
  options: CopyOptions = {},
): Promise<number> {
  return withParentDir(target, options.display ?? basename(target), (dir, name) =>
    copyInto(source, dir, name, options),
  );
}

async function copyInto(
  source: { real: string; display: string },
  dir: PinnedDir,
  name: string,
  options: CopyOptions,
): Promise<number> {
  const { handle: input } = await openRegularFile(source.real, source.display);
  try {
    const mode = (options.mode ?? (await input.stat()).mode) & KEPT_MODE_BITS;
    const temp = dir.entry(tempName(name));
    const output = await open(temp, CREATE_FLAGS, mode);
    // Each chunk copied is progress: a big file on a slow mount is not taken for a stalled one.
    const scope = stallScopeOf(options.signal);
    let copied: number;
    try {
      try {
        copied = await copyBytes(input, output, options.signal, () => scope?.alive());
        await output.chmod(mode);
        await output.sync();
      } finally {
        await output.close();
      }
      throwIfAborted(options.signal);
      await rename(temp, dir.entry(name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return copied;
  } finally {
    await input.close();
  }
}

/**
 * Moves a directory entry (a file, a directory, or a symbolic link itself) by renaming it, and when
 * the two places are on different file systems (EXDEV) by copying it next to the target under a
 * temporary name, renaming that into place, then removing the source. Links inside a moved tree are
 * copied as links, never followed. Both directories are pinned first, so neither can be swapped for
 * a link to somewhere else between the check and the move. A tree copied across file systems
 * never carries a mount point along (the move is refused before anything changes), and one that
 * reaches a slow mount below the source joins the call's deadline (see `tree-guard.ts`).
 */
export async function moveEntry(
  source: { real: string; display: string; stats: Stats },
  target: { real: string; display: string },
  signal?: AbortSignal,
): Promise<void> {
  await withParentDir(source.real, source.display, (from, sourceName) =>
    withParentDir(target.real, target.display, (to, targetName) =>
      moveBetween(source, from, sourceName, to, targetName, signal),
    ),
  );
}

async function moveBetween(
  source: { real: string; display: string; stats: Stats },
  from: PinnedDir,
  sourceName: string,
  to: PinnedDir,
  targetName: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const sourcePath = from.entry(sourceName);
  await assertSameEntry(sourcePath, source.stats, source.display);
  throwIfAborted(signal);
  try {
    await rename(sourcePath, to.entry(targetName));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const tempBase = tempName(targetName);
  const temp = to.entry(tempBase);
  let guard: TreeGuard | undefined;
  try {
    if (source.stats.isSymbolicLink()) {
      await symlink(await readlink(sourcePath), temp);
    } else if (source.stats.isDirectory()) {
      guard = await TreeGuard.open(source, { signal, action: 'move', dev: source.stats.dev });
      guard.refuseListedMounts();
      await copyTree(from, sourceName, to, tempBase, guard);
    } else {
      await copyInto(source, to, tempBase, { mode: source.stats.mode, ...(signal ? { signal } : {}) });
    }
    throwIfAborted(signal);
    await rename(temp, to.entry(targetName));
  } catch (error) {
    // What failed is what the caller hears, not a failure to clean up after it.
    await removeTree(to, tempBase, { force: true }).catch(() => {});
    throw error;
  }
  if (!guard) return unlink(sourcePath);
  // The copy is in place: a stop from here on leaves both, and says so.
  guard.changed = true;
  await removeTree(from, sourceName, { guard });
}
