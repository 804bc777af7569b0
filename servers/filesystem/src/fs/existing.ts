import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UserError } from '@mcpkit/core/errors';

/** `lstat` of a path, or `undefined` when nothing is there. */
export async function lstatIfAny(real: string): Promise<Stats | undefined> {
  try {
    return await lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Fails unless the directory that will hold a new entry exists: writes do not create parents on
 * their own, so a typo in a directory name does not silently grow a new tree.
 */
export async function requireParent(real: string, display: string): Promise<void> {
  const parent = await lstatIfAny(dirname(real));
  if (!parent?.isDirectory()) {
    throw new UserError(
      `The directory that would hold "${display}" does not exist; create it first with create_directory.`,
    );
  }
}
