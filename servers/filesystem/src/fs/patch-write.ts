import { lstat, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isUserError, UserError } from '@mcpkit/core/errors';
import { atomicWrite } from './atomic-write.js';
import { codeOf } from './errno-code.js';
import type { PatchAction } from './patch.js';
import { withParentDir } from './pinned.js';
import { assertUnchanged } from './text-snapshot.js';

/** One file a validated patch will write or delete. */
export interface PlannedChange {
  /** Real path inside the roots. */
  real: string;
  /** Safe name for messages. */
  display: string;
  action: PatchAction;
  /** The new content; `undefined` for a deletion. */
  text: string | undefined;
  /** Digest of the content the change was computed from; `undefined` for a file that did not exist. */
  digest: string | undefined;
}

/** Fails unless the folder of every file the patch creates exists: a patch never creates folders. */
export async function checkParents(changes: readonly PlannedChange[]): Promise<void> {
  for (const change of changes) {
    if (change.action !== 'created') continue;
    const parent = await stat(dirname(change.real)).catch(() => undefined);
    if (!parent?.isDirectory()) {
      throw new UserError(
        `The patch creates "${change.display}", but its folder does not exist; create it with create_directory first. Nothing was changed.`,
      );
    }
  }
}

async function assertStillAbsent(change: PlannedChange): Promise<void> {
  try {
    await lstat(change.real);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  throw new UserError(
    `"${change.display}" appeared while the patch was being checked; nothing was changed. Look at it and apply the patch again.`,
  );
}

/**
 * Writes a validated patch: first checks that no file changed since it was read (or appeared where
 * the patch creates one), then writes each file atomically and deletes the deleted ones. A failure
 * before the first write changes nothing; a failure after it (a full disk, a permission) says which
 * files were already written, since several renames cannot be made one atomic step.
 */
export async function commitChanges(changes: readonly PlannedChange[], signal?: AbortSignal): Promise<void> {
  for (const change of changes) {
    if (change.digest === undefined) await assertStillAbsent(change);
    else await assertUnchanged(change.real, change.display, change.digest);
  }
  // Given up (a stalled mount) or cancelled while the checks waited: nothing is written.
  signal?.throwIfAborted();
  const done: string[] = [];
  for (const change of changes) {
    try {
      if (done.length === 0) signal?.throwIfAborted();
      if (change.text === undefined)
        await withParentDir(change.real, change.display, (dir, name) => unlink(dir.entry(name)));
      else
        await atomicWrite(change.real, change.text, {
          display: change.display,
          ...(done.length === 0 && signal ? { signal } : {}),
        });
      done.push(change.display);
    } catch (error) {
      const reason = isUserError(error) ? error.message : `error ${codeOf(error) ?? 'unknown'}`;
      const state =
        done.length > 0
          ? `these files were already changed: ${done.map((d) => `"${d}"`).join(', ')}. The patch is only partly applied; check them before trying again.`
          : 'no file was changed.';
      throw new UserError(`Writing "${change.display}" failed (${reason}); ${state}`);
    }
  }
}
