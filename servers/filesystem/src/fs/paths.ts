import { UserError } from '@mcpkit/core/errors';
import type { ResolvedPath, ResolveMode, RootSet } from '@mcpkit/core/roots';
import { isSensitive } from './sensitive.js';

/** Server-wide path policy beyond the roots: set once from the command line. */
export interface PathPolicy {
  /** Allow reading and writing files that usually hold secrets (`--allow-sensitive`). */
  allowSensitive: boolean;
}

/**
 * Resolves a path a tool was given: inside the roots (core's guard: segment-wise containment after
 * realpath, symlinks and dangling links, NUL, `~`, Unicode, Windows forms), and not a secret file.
 * Every tool goes through here, so the rule lives in one place.
 *
 * @example
 * ```ts
 * const target = await resolvePath(await call.roots(), policy, args.path, 'write');
 * ```
 */
export async function resolvePath(
  roots: RootSet,
  policy: PathPolicy,
  input: string,
  mode: ResolveMode = 'read',
): Promise<ResolvedPath> {
  const resolved = await roots.resolve(input, { mode });
  if (!policy.allowSensitive && isSensitive(resolved.real)) {
    throw new UserError(
      `"${resolved.display}" looks like a file that holds secrets, so it is not available; the operator can allow it with --allow-sensitive.`,
    );
  }
  return resolved;
}
