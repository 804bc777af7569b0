import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, open, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';
import { stallScopeOf } from '@mcpkit/core/roots';
import { CREATE_FLAGS, KEPT_MODE_BITS } from './atomic-write.js';
import { copyBytes } from './copy-tree.js';
import { codeOf } from './errno-code.js';
import { type MoveOutcome, moveTreeAcross } from './move-tree.js';
import { assertSameEntry, changedError, type PinnedDir, withParentDir } from './pinned.js';
import { openRegularFile } from './safe-open.js';
import { sameEntry } from './tree-dirs.js';
import { replacedSentence, topMountSentence } from './tree-messages.js';

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
  /** The source's `lstat`, when it was checked: the file opened must be that very one. */
  expected?: Stats;
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
    if (options.expected && !sameEntry(await input.stat(), options.expected)) {
      throw changedError(source.display);
    }
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

/** Options of {@link moveEntry}. */
export interface MoveOptions {
  signal?: AbortSignal | undefined;
  /** The process log, for what a failed move could not clean up (it names host paths). */
  log?: (line: string) => void;
}

const NOTHING_KEPT: MoveOutcome = { kept: { count: 0, shown: [] }, cancelIgnored: false };

/**
 * Moves a directory entry (a file, a directory, or a symbolic link itself) by renaming it, and when
 * the two places are on different file systems (EXDEV) by copying it next to the target under a
 * temporary name, renaming that into place, then removing the source (a directory: see
 * `move-tree.ts`). Links inside a moved tree are copied as links, never followed. Both directories
 * are pinned first, so neither can be swapped for a link to somewhere else between the check and
 * the move, and the source is removed only while it is still the entry that was checked and copied.
 * A mount point is never moved, nor carried along inside a tree.
 */
export async function moveEntry(
  source: { real: string; display: string; stats: Stats },
  target: { real: string; display: string },
  options: MoveOptions = {},
): Promise<MoveOutcome> {
  return withParentDir(source.real, source.display, (from, sourceName) =>
    withParentDir(target.real, target.display, (to, targetName) =>
      moveBetween(source, { dir: from, name: sourceName }, { dir: to, name: targetName, ...target }, options),
    ),
  );
}

async function moveBetween(
  source: { real: string; display: string; stats: Stats },
  from: { dir: PinnedDir; name: string },
  to: { dir: PinnedDir; name: string; display: string },
  options: MoveOptions,
): Promise<MoveOutcome> {
  const { signal } = options;
  const sourcePath = from.dir.entry(from.name);
  await assertSameEntry(sourcePath, source.stats, source.display);
  throwIfAborted(signal);
  try {
    await rename(sourcePath, to.dir.entry(to.name));
    return NOTHING_KEPT;
  } catch (error) {
    // A mount point cannot be renamed (EBUSY); across file systems it would be copied and emptied.
    if (codeOf(error) === 'EBUSY' && source.stats.isDirectory()) {
      throw new UserError(topMountSentence('move', source.display, true));
    }
    if (codeOf(error) !== 'EXDEV') throw error;
  }
  const tempBase = tempName(to.name);
  if (source.stats.isDirectory()) {
    const log = options.log ?? (() => {});
    return moveTreeAcross(source, { ...from, display: source.display }, { ...to, tempBase }, signal, log);
  }
  const temp = to.dir.entry(tempBase);
  try {
    if (source.stats.isSymbolicLink()) {
      await symlink(await readlink(sourcePath), temp);
    } else {
      await copyInto(source, to.dir, tempBase, {
        mode: source.stats.mode,
        expected: source.stats,
        ...(signal ? { signal } : {}),
      });
    }
    throwIfAborted(signal);
    await rename(temp, to.dir.entry(to.name));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // What was copied is what goes: not another entry put at the name since.
  const now = await lstat(sourcePath).catch(() => undefined);
  if (!now || !sameEntry(now, source.stats)) {
    throw new UserError(replacedSentence(source.display, to.display));
  }
  await unlink(sourcePath);
  return NOTHING_KEPT;
}
