import { sep } from 'node:path';
import type { PageSource } from '@mcpkit/core/pagination';
import { EVERY_NAME, type NameFilter, NON_ASCII_CHAR } from './directory-page.js';
import type { EntryMatcher } from './glob.js';
import type { Positioned } from './paging.js';
import { isSensitive, SENSITIVE_DIRS, SENSITIVE_PATTERNS } from './sensitive.js';
import type { EntryFilter, ExcludeTest, WalkEntry, WalkOptions, WalkPosition, WalkStats } from './walk.js';
import { walk } from './walk.js';

/** Counts what a listing left out on purpose, for the note that says so. */
export interface Hidden {
  secrets: number;
}

/**
 * The literal parts of the secret rules (".env", ".pem", "id_rsa", ".ssh"…), lower-cased and
 * escaped as one regular-expression alternation, built from `isSensitive`'s own lists so the rule
 * stays in one place; or `undefined` when a pattern has other glob characters than `*`, or a needle
 * holds a `/` (which could span two names): then any path might be secret.
 */
const SECRET_NEEDLES: string | undefined = (() => {
  const needles: string[] = [...SENSITIVE_DIRS];
  for (const pattern of SENSITIVE_PATTERNS) {
    if (/[?[\]{}()!+@\\]/.test(pattern)) return undefined;
    const pieces = pattern.toLowerCase().split('*');
    needles.push(pieces.reduce((a, b) => (b.length > a.length ? b : a), ''));
  }
  if (needles.some((n) => n === '' || n.includes('/'))) return undefined;
  return needles.map((n) => n.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
})();

/**
 * A quick test that is true for every path `isSensitive` could flag. `isSensitive` costs about 2 µs
 * (a picomatch list per name), more than walking the entry, so a walk asks it only when a
 * lower-cased path from the root contains a secret needle. Both sides lower-case with `toLowerCase`
 * and `isSensitive` only ever cuts names short, so nothing it flags is missed.
 */
const mightBeSecret: (lowerCasePath: string) => boolean = (() => {
  if (SECRET_NEEDLES === undefined) return () => true;
  const any = new RegExp(SECRET_NEEDLES);
  return (path) => any.test(path);
})();

/**
 * The closer-look test of a one-directory listing (see `DirectoryPageOptions.closerLook`): names
 * with a character outside ASCII, or with a secret needle in any letter case. For an ASCII name,
 * `toLowerCase` changes only A-Z, which is just what the `i` flag ignores, so a name this passes
 * over is one `mightBeSecret` would clear too. One test per name, where the filter took a
 * lower-cased copy and a needle test, and the page a test for non-ASCII characters.
 */
const SECRET_OR_NON_ASCII = new RegExp(
  SECRET_NEEDLES === undefined ? '' : `${NON_ASCII_CHAR}|${SECRET_NEEDLES}`,
  'i',
);

/**
 * The exclude test of a listing or search: the caller's globs, then (unless the operator allowed
 * them) entries that usually hold secrets, by `isSensitive` on the real path. They are left out
 * rather than refused, so a listing of a project with a `.env` still works; `hidden.secrets`
 * counts them for a note. `root` is the real path walked: when it lies in a secret directory
 * (`~/.ssh`), everything under it is left out.
 *
 * The quick test looks at the entry's name and, once per directory, at the directory's path from
 * the root: no needle holds a `/`, so that is the same as testing the whole relative path.
 */
export function listingFilter(
  root: string,
  exclude: EntryMatcher | undefined,
  hideSecrets: boolean,
  hidden: Hidden,
): ExcludeTest | undefined {
  if (!hideSecrets) return exclude;
  const inSecretDir = isSensitive(`${root}${sep}-`);
  let lastParent: string | undefined;
  let parentMaybe = false;
  return (relative, name, isDirectory, path, parent) => {
    if (exclude?.(relative, name, isDirectory)) return true;
    if (parent !== lastParent) {
      lastParent = parent;
      parentMaybe = mightBeSecret(parent.toLowerCase());
    }
    if (!inSecretDir && !((parentMaybe || mightBeSecret(name.toLowerCase())) && isSensitive(path)))
      return false;
    hidden.secrets++;
    return true;
  };
}

/** The exclude test of a one-directory listing and its closer-look test (see `directoryPage`). */
export interface DirectoryFilter {
  exclude: NameFilter;
  closerLook: RegExp;
}

/**
 * The exclude test of a one-directory listing: {@link listingFilter}'s secret rule for the entries
 * of `root` alone, asked with the name only. The entry's path is built just for the names the quick
 * test cannot clear, instead of for every entry of a directory that may hold thousands; and the
 * page asks it only about the names `closerLook` matches.
 */
export function directoryFilter(
  root: string,
  hideSecrets: boolean,
  hidden: Hidden,
): DirectoryFilter | undefined {
  if (!hideSecrets) return undefined;
  const inSecretDir = isSensitive(`${root}${sep}-`);
  const prefix = root.endsWith(sep) ? root : root + sep;
  return {
    exclude: (name) => {
      if (!inSecretDir && !(mightBeSecret(name.toLowerCase()) && isSensitive(prefix + name))) return false;
      hidden.secrets++;
      return true;
    },
    // In a secret directory every entry is left out, so each needs asking.
    closerLook: inSecretDir ? EVERY_NAME : SECRET_OR_NON_ASCII,
  };
}

/**
 * A walk as a resumable page source (see core's `paginateSource`): each entry that `keep` accepts
 * is an item, and its walk position is where the next page picks up, so page 2 re-lists only the
 * directories on the path to that entry instead of walking again from the start.
 */
export function walkSource(
  root: string,
  options: Omit<WalkOptions, 'from' | 'signal'>,
  keep?: EntryFilter,
): PageSource<Positioned<WalkEntry, WalkPosition>, WalkPosition> {
  return async function* (from, signal) {
    const walkOptions: WalkOptions = { ...options };
    if (from) walkOptions.from = from;
    if (signal) walkOptions.signal = signal;
    if (keep) walkOptions.match = keep;
    for await (const entry of walk(root, walkOptions)) {
      yield { item: { value: entry, position: entry.position }, position: entry.position };
    }
  };
}

/** The sentences that explain what a listing left out, or nothing. */
export function listingNotes(stats: WalkStats, hidden: Hidden): string[] {
  const notes: string[] = [];
  if (hidden.secrets > 0)
    notes.push(
      `${hidden.secrets} ${hidden.secrets === 1 ? 'entry that usually holds' : 'entries that usually hold'} secrets (.env, keys, credentials) ${hidden.secrets === 1 ? 'was' : 'were'} left out; the operator can allow them with --allow-sensitive.`,
    );
  if (stats.unreadable > 0)
    notes.push(
      `${stats.unreadable} ${stats.unreadable === 1 ? 'directory' : 'directories'} could not be read (permission denied or removed) and ${stats.unreadable === 1 ? 'was' : 'were'} skipped.`,
    );
  return notes;
}
