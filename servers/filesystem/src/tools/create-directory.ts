import { lstat, mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import type { ResolvedPath } from '@mcpkit/core/roots';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { codeOf } from '../fs/errno-code.js';
import { lstatIfAny } from '../fs/existing.js';
import { askName } from '../fs/paths.js';
import { changedError, PinnedDir } from '../fs/pinned.js';

/**
 * Creates the missing directories of `target` (`mkdir -p`) one name at a time, each inside the
 * descriptor of the one before (the deepest existing one is pinned first), so a directory on the way
 * that is swapped for a link meanwhile makes it fail instead of creating directories outside.
 */
async function makeDirectories(target: ResolvedPath, signal: AbortSignal): Promise<void> {
  let base = dirname(target.real);
  const missing = [basename(target.real)];
  for (;;) {
    const stats = await lstat(base).catch(() => undefined);
    if (stats?.isDirectory()) break;
    // Only the part of the path below the root can be missing; anything else changed meanwhile.
    if (base === target.root.path || dirname(base) === base) throw changedError(target.display);
    missing.unshift(basename(base));
    base = dirname(base);
  }
  let dir = await PinnedDir.open(base, target.display);
  try {
    for (const name of missing) {
      // A call given up (a stalled mount) or cancelled creates nothing more once the mount answers.
      signal.throwIfAborted();
      try {
        await mkdir(dir.entry(name));
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
      }
      const next = await dir.child(name);
      await dir.close();
      dir = next;
    }
  } finally {
    await dir.close();
  }
}

/** Creates a directory and any missing parents (`mkdir -p`); an existing directory is success. */
export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create directory',
  description:
    'Creates a directory, with any missing parent directories. Succeeds without change if it already ' +
    'exists. Only works within the allowed directories.',
  input: z.object({ path: z.string().describe('The directory to create') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ path }, call) {
    const target = await resolveArg(call, path, 'create-dir');
    const name = askName(await call.roots(), path, target);
    const existing = await lstatIfAny(target.real);
    if (existing?.isDirectory()) return { text: `Directory ${name} already exists.` };
    if (existing) throw new UserError(`"${target.display}" already exists and is not a directory.`);
    try {
      await makeDirectories(target, call.signal);
    } catch (error) {
      const code = codeOf(error);
      // Lost a race with something that put a file (or a link) on the way since the path was resolved.
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'ELOOP')
        throw new UserError(
          `"${target.display}" cannot be created: a part of it is a file, not a directory.`,
        );
      throw error;
    }
    return { text: `Created directory ${name}.` };
  },
});
