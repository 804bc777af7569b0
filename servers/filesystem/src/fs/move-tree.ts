import type { Stats } from 'node:fs';
import { lstat, rename } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import { removeCopy } from './copy-cleanup.js';
import { type CopiedTree, copyTree } from './copy-tree.js';
import { applyDirectoryModes } from './copy-tree-metadata.js';
import { countEntries } from './count-entries.js';
import type { PinnedDir } from './pinned.js';
import { type Kept, removeCopied } from './remove-copied.js';
import { sameEntry, statOf } from './tree-dirs.js';
import { TreeGuard } from './tree-guard.js';
import { displayBelow, replacedSentence, specialFileSentence } from './tree-messages.js';

/** What a move did besides moving what was asked. */
export interface MoveOutcome {
  /** Entries of a moved directory left in the old place: they appeared, or were replaced, while it was copied. */
  kept: Kept;
  /** A cancel came once the copy was in place, and the move was finished instead. */
  cancelIgnored: boolean;
}

/** One side of the move: the pinned directory, the entry's name in it, and its safe name for messages. */
export interface Side {
  dir: PinnedDir;
  name: string;
  display: string;
}

/**
 * Moves a directory to another file system: copies it beside the target under `tempBase`, gives
 * the copy's directories their modes and times, renames it into place, then removes the original.
 *
 * - **Before anything is made**, the whole source is walked (`countEntries`): a mount point below
 *   it (or the source itself being one), a special file or an unreadable directory is refused
 *   with one sentence, so the usual failures leave nothing behind.
 * - **A copy that fails** is removed again (`copy-cleanup.ts`): only what it made, and what cannot
 *   be removed is logged (`log`), never silently left.
 * - **Once the copy is in place** the original is removed only if it is still the directory that
 *   was copied, and in it only what was copied (`remove-copied.ts`); what appeared there meanwhile
 *   stays and is reported. A cancel no longer stops it (half the tree in each place would help no
 *   one); the stall deadline of a slow mount still does.
 */
export async function moveTreeAcross(
  source: { real: string; display: string; stats: Stats },
  from: Side,
  to: Side & { tempBase: string },
  signal: AbortSignal | undefined,
  log: (line: string) => void,
): Promise<MoveOutcome> {
  const guard = await TreeGuard.open(source, { signal, action: 'move', dev: source.stats.dev });
  const made: CopiedTree = { fromDev: source.stats.dev };
  const copyDisplay = (relative: string) => displayBelow(to.display, relative);
  try {
    guard.refuseMountedTop(await statOf(from.dir));
    guard.refuseListedMounts();
    await countEntries(source.real, Number.POSITIVE_INFINITY, guard, {
      refuseSpecial: (display) => new UserError(specialFileSentence(display)),
    });
    await copyTree(from.dir, from.name, to.dir, to.tempBase, guard, made);
    await applyDirectoryModes(to.dir, to.tempBase, made, copyDisplay);
    guard.check();
    await rename(to.dir.entry(to.tempBase), to.dir.entry(to.name));
  } catch (error) {
    // What failed is what the caller hears; what could not be cleaned up goes to the log.
    const gone = await removeCopy(to.dir, to.tempBase, made).catch(() => false);
    if (!gone) log(`a failed move left part of its copy at ${to.dir.real}/${to.tempBase}`);
    throw guard.explain(error);
  }
  guard.commit();
  const now = await lstat(from.dir.entry(from.name)).catch(() => undefined);
  if (!now || !sameEntry(now, source.stats)) {
    throw new UserError(replacedSentence(source.display, to.display));
  }
  try {
    const kept = await removeCopied(from.dir, from.name, made, guard);
    return { kept, cancelIgnored: guard.cancelIgnored };
  } catch (error) {
    throw guard.explain(error);
  }
}
