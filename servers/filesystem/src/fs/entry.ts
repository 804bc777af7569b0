import type { Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import os from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { parsePathInput, type RootSet } from '@mcpkit/core/roots';
import { type PathPolicy, resolvePath } from './paths.js';
import { isSensitive } from './sensitive.js';

/** A directory entry to act on as itself: a symbolic link is the link, not what it points to. */
export interface Entry {
  /** Real path of the entry: its parent directory's realpath plus its own name. */
  real: string;
  /** Safe name for messages. */
  display: string;
  /** `lstat` of the entry. */
  stats: Stats;
}

/**
 * Resolves a path whose last component is to be moved or deleted itself. Reading follows links
 * (core's resolve); removing or renaming must not, or deleting `notes -> ../src` would delete the
 * source tree. So when the last component is a symbolic link whose directory lies inside the
 * roots, the link is the entry, wherever it points (even outside, or nowhere). Otherwise the path is
 * resolved as usual. An allowed directory itself is refused: removing it would take the root away.
 *
 * @example
 * ```ts
 * const entry = await resolveEntry(roots, policy, 'notes/link', 'deleted'); // the link, not its target
 * ```
 */
export async function resolveEntry(
  roots: RootSet,
  policy: PathPolicy,
  input: string,
  verb: 'deleted' | 'moved',
): Promise<Entry> {
  // finalLink touches the parent directory before resolvePath would put it under the guard.
  await roots.enterGuard(input, policy.stall);
  const link = await finalLink(roots, input);
  if (link) {
    const display = roots.display(link.real);
    if (!policy.allowSensitive && isSensitive(link.real)) {
      throw new UserError(
        `"${display}" looks like a file that holds secrets, so it is not available; the operator can allow it with --allow-sensitive.`,
      );
    }
    return { ...link, display };
  }
  const resolved = await resolvePath(roots, policy, input, 'read');
  if (roots.roots.some((root) => root.path === resolved.real)) {
    throw new UserError(
      `"${resolved.display}" is one of the allowed directories itself, so it cannot be ${verb}; name something inside it.`,
    );
  }
  try {
    return { real: resolved.real, display: resolved.display, stats: await lstat(resolved.real) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UserError(`"${resolved.display}" does not exist; check the path.`);
    throw error;
  }
}

// The entry named by `input` when it is a symbolic link in a directory inside the roots.
async function finalLink(roots: RootSet, input: string): Promise<{ real: string; stats: Stats } | undefined> {
  const first = roots.roots[0];
  if (!first) return undefined;
  try {
    const absolute = parsePathInput(input, { base: first.path, home: os.homedir() });
    const parent = await realpath(dirname(absolute));
    const name = basename(absolute);
    if (name === '' || !roots.contains(parent)) return undefined;
    const real = join(parent, name);
    const stats = await lstat(real);
    return stats.isSymbolicLink() ? { real, stats } : undefined;
  } catch {
    // Anything unusual (a bad input, a missing parent) is left to the full resolve, which explains it.
    return undefined;
  }
}
