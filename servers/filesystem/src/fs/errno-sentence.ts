/**
 * The last word on a file system error that no handler turned into its own sentence. Tools name
 * the failures they expect where they meet them; what still escapes (a path longer than the system
 * allows, a file removed between two steps, a full disk) is the state of the disk or the caller's
 * input, not a bug, so it becomes one sentence here instead of "internal error". The path named is
 * the entry's place inside the roots, never the host path the error carries.
 */
import { UserError } from '@mcpkit/core/errors';
import { type RootSet, sanitizeForMessage } from '@mcpkit/core/roots';

type Sentence = (named: string | undefined) => string;

const SENTENCES: Record<string, Sentence> = {
  ENOENT: (n) =>
    n
      ? `"${n}" does not exist (it may have just been moved or removed); check the path and try again.`
      : 'A file or directory this call needs does not exist (it may have just been moved or removed); check the path and try again.',
  ENOTDIR: (n) =>
    `${n ? `"${n}": a` : 'A'} part of the path is a file, not a directory; check the path and try again.`,
  EISDIR: (n) => `${n ? `"${n}" is` : 'A path names'} a directory where a file is needed; name a file.`,
  ELOOP: (n) =>
    `${n ? `"${n}" has` : 'A path has'} too many levels of symbolic links (probably a loop); fix the links or choose another path.`,
  ENAMETOOLONG: (n) =>
    `${n ? `"${n}" is` : 'A path is'} too long for the file system; use a shorter path or shorter names.`,
  EACCES: (n) =>
    `${n ? `"${n}"` : 'A path'} cannot be used: permission denied; choose a path this server can use.`,
  EEXIST: (n) =>
    `${n ? `"${n}"` : 'Something at that path'} already exists; choose another name or remove it first.`,
  ENOTEMPTY: (n) => `${n ? `"${n}"` : 'The directory'} is not empty; empty it first or choose another path.`,
  EBUSY: (n) =>
    `${n ? `"${n}"` : 'A file or directory'} is busy (in use, or a mount point); try again later or choose another path.`,
  EROFS: (n) => `${n ? `"${n}" is` : 'That path is'} on a read-only file system, so it cannot be changed.`,
  ENOSPC: () => 'The disk is full; free some space and try again.',
  EMFILE: () => 'The server has too many files open right now; try again in a moment.',
};
// The same condition under other names.
SENTENCES.EPERM = SENTENCES.EACCES as Sentence;
SENTENCES.EDQUOT = SENTENCES.ENOSPC as Sentence;
SENTENCES.ENFILE = SENTENCES.EMFILE as Sentence;

/**
 * A `UserError` for a file system error with a known errno code, or `undefined` for anything else
 * (which stays an internal error, logged in full). `roots` lets the sentence name the entry.
 *
 * @example
 * ```ts
 * errnoSentence(Object.assign(new Error('…'), { code: 'ENAMETOOLONG', syscall: 'open' }), roots);
 * // UserError('A path is too long for the file system; use a shorter path or shorter names.')
 * ```
 */
export function errnoSentence(error: unknown, roots?: RootSet): UserError | undefined {
  if (!(error instanceof Error) || typeof (error as NodeJS.ErrnoException).syscall !== 'string')
    return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  const sentence = code === undefined ? undefined : SENTENCES[code];
  if (!sentence) return undefined;
  // Only a path inside the roots is named, by its place there; `/proc/self/fd/…` and host paths are not.
  const inside = typeof path === 'string' && roots?.contains(path) ? roots.display(path) : undefined;
  return new UserError(sentence(inside === undefined ? undefined : sanitizeForMessage(inside)));
}
