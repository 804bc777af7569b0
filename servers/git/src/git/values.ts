/**
 * What a client may send where git expects a name, a ref or a path. Every value is checked before
 * it reaches an argument vector: one that starts with `-` would be read as an option
 * (`--output=…` writes a file), a NUL cuts it, a newline forges a line of porcelain output. Refs
 * are then resolved to the SHA they name, and only the SHA is passed on.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import type { RootSet } from '@mcpkit/core/roots';
import type { Repository } from './repository.js';

const MAX_VALUE = 1024;

/** Refuses a value that git could read as an option, or that holds control characters. */
export function checkValue(label: string, value: string): string {
  if (value.length === 0) throw new UserError(`The ${label} is empty; give a value.`);
  if (value.length > MAX_VALUE) throw new UserError(`The ${label} is longer than ${MAX_VALUE} characters.`);
  if (value.startsWith('-'))
    throw new UserError(`The ${label} "${shown(value)}" starts with "-"; git would read it as an option.`);
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new UserError(`The ${label} has control characters; remove them.`);
  return value;
}

// Control characters, and the invisible ones that break a line or reverse the text after them (bidi).
const UNQUOTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with control characters and bidi controls replaced, so that quoted in a message it can
 * neither break the message nor make it read differently.
 */
export function quotable(text: string): string {
  return text.replace(UNQUOTABLE, '?');
}

/** A value safe to quote in a message: cut short, without control characters (see {@link quotable}). */
export function shown(value: string): string {
  const clean = quotable(value);
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

/**
 * A branch or tag name to create: also what `git check-ref-format --branch` accepts (checked by
 * git itself when the branch is made); here only the shape that cannot be an option or a range.
 */
export function checkNewName(label: string, value: string): string {
  checkValue(label, value);
  if (/[\s~^:?*[\\]|\.\.|@\{|\/\/|\.lock$|^\/|\/$|\.$/.test(value)) {
    throw new UserError(`The ${label} "${shown(value)}" is not a valid git ref name.`);
  }
  return value;
}

/**
 * The commit a ref names (a branch, a tag, `HEAD~2`, a hash), as a full SHA, or a `UserError`
 * saying nothing matched. `rev-parse --verify --end-of-options` reads the value as a revision only.
 */
export async function resolveCommit(
  repo: Repository,
  label: string,
  ref: string,
  signal?: AbortSignal,
): Promise<string> {
  checkValue(label, ref);
  const out = await repo.runRaw(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    ...(signal ? { signal } : {}),
  });
  const sha = out.stdout.trim();
  if (out.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    throw new UserError(
      `No commit is named "${shown(ref)}" in this repository; give a branch, a tag or a commit hash.`,
    );
  }
  return sha;
}

/** Like {@link resolveCommit}, or `undefined` when the repository has no commit yet (for HEAD). */
export async function headCommit(repo: Repository, signal?: AbortSignal): Promise<string | undefined> {
  const out = await repo.runRaw(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    ...(signal ? { signal } : {}),
  });
  return out.code === 0 ? out.stdout.trim() : undefined;
}

/**
 * Paths a client gave (relative to the work tree, or absolute), as literal pathspecs relative to
 * the work tree: each must lie inside the allowed directories (symlinks resolved by core's roots
 * guard) and inside the work tree. Passed after `--` with `:(literal)`, so no pathspec magic and no
 * glob applies.
 */
export async function pathspecs(
  repo: Repository,
  roots: RootSet,
  files: readonly string[],
): Promise<string[]> {
  const specs: string[] = [];
  for (const file of files) {
    checkValue('path', file);
    const absolute = isAbsolute(file) ? file : resolve(repo.top, file);
    const lexical = relative(repo.top, absolute);
    if (lexical === '..' || lexical.startsWith(`..${sep}`) || isAbsolute(lexical)) {
      throw new UserError(`The path "${shown(file)}" is outside the repository's work tree.`);
    }
    // Core's sentence would quote the absolute form built here, not what the client sent.
    const real = (
      await roots.resolve(absolute).catch(() => {
        throw new UserError(`The path "${shown(file)}" leads outside the allowed directories.`);
      })
    ).real;
    const inside = relative(repo.top, real);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      throw new UserError(`The path "${shown(file)}" leads outside the repository's work tree.`);
    }
    // The lexical form, not the resolved one: git tracks a symlink inside the tree as the link.
    specs.push(`:(literal)${lexical === '' ? '.' : lexical.split(sep).join('/')}`);
  }
  return specs;
}
