import { relative } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import {
  type ResolvedPath,
  type ResolveMode,
  type RootSet,
  type StallScope,
  sanitizeForMessage,
} from '@mcpkit/core/roots';
import { isSensitive } from './sensitive.js';

/** Server-wide path policy beyond the roots: set once from the command line. */
export interface PathPolicy {
  /** Allow reading and writing files that usually hold secrets (`--allow-sensitive`). */
  allowSensitive: boolean;
  /**
   * The call's stall guard (see `stall.ts`), set per call: a path on a network or FUSE mount is put
   * under its deadline and slot limit as it is resolved.
   */
  stall?: StallScope;
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
  const resolved = await roots.resolve(input, { mode, scope: policy.stall });
  if (!policy.allowSensitive && isSensitive(resolved.real)) {
    throw new UserError(
      `"${resolved.display}" looks like a file that holds secrets, so it is not available; the operator can allow it with --allow-sensitive.`,
    );
  }
  return resolved;
}

/**
 * How a confirmation question names what it is about: the caller's own words, plus the real target
 * unless those words are already its plain path (absolute, or relative to the first root). The
 * user must agree to what will change, not to the name a model chose: `Overwrite "notes.txt"?` for
 * a link to `src/main.ts`, or `Delete "build/out/../../src"?`, would get consent for one thing and
 * change another. The words are escaped, so a bidi control cannot make them read differently.
 *
 * @example
 * ```ts
 * confirm(call.flow, { message: `Overwrite ${askName(roots, args.path, target)}?` });
 * // 'Overwrite "notes.txt" (that is "app/src/main.ts")?'
 * ```
 */
export function askName(roots: RootSet, input: string, target: { real: string; display: string }): string {
  const quoted = `"${sanitizeForMessage(input)}"`;
  const first = roots.roots[0];
  const plain = input === target.real || (first !== undefined && input === relative(first.path, target.real));
  return plain ? quoted : `${quoted} (that is "${target.display}")`;
}
