import { compileGlobTest, hasGlobSyntax } from './glob-match.js';

/** Tests an entry of a walk: its path from the search root (`/`-separated), its name, its kind. */
export type EntryMatcher = (relative: string, name: string, isDirectory: boolean) => boolean;

// Windows file names are case-insensitive, so patterns are too there; elsewhere they are exact.
const NOCASE = process.platform === 'win32';

/**
 * Compiles one glob, once per call, under these rules (the same for `pattern`, `include` and
 * `excludePatterns`):
 *
 * - Globs have `*`, `?`, `**`, `[abc]` and `{a,b}` (see `glob-match.ts`); `*` matches names that
 *   start with a dot too. A leading `!` negates the pattern. Matching never uses a regex, so no
 *   pattern can make it backtrack for minutes on a long name or a deep path.
 * - A pattern without `/` is matched against the entry's name, at any depth: `*.ts` finds every
 *   `.ts` file (as `**\/*.ts` does), `node_modules` excludes every directory of that name.
 * - A pattern with `/` is matched against the whole path from the search root: `src/*.ts` finds
 *   only the files directly in `src`. A leading `/` or `./` anchors a name-only pattern the same
 *   way: `/*.ts` finds only the `.ts` files at the top.
 * - A trailing `/` matches directories only: `build/`.
 * - With `substring` (search_files' `pattern`), a name-only pattern with no glob character at all
 *   matches every name that contains it, ignoring case, as the official server once did: `config`
 *   finds `config.json` and `app.config.ts`.
 *
 * The tree under an excluded directory is never walked, so excluding `node_modules` costs next to nothing.
 *
 * @example
 * ```ts
 * const m = compileGlob('*.ts');
 * m('src/a/index.ts', 'index.ts', false); // true
 * compileGlob('src/*.ts')('src/a/index.ts', 'index.ts', false); // false
 * ```
 */
export function compileGlob(pattern: string, options: { substring?: boolean } = {}): EntryMatcher {
  let body = pattern;
  // `!x` (not an escaped `\!`): everything `x` does not match, as picomatch reads it.
  const negated = body.length > 1 && body.startsWith('!');
  if (negated) body = body.slice(1);
  const directoriesOnly = body.length > 1 && body.endsWith('/');
  if (directoriesOnly) body = body.replace(/\/+$/, '');
  let anchored = false;
  if (body.startsWith('./')) {
    body = body.slice(2);
    anchored = true;
  } else if (body.startsWith('/')) {
    body = body.replace(/^\/+/, '');
    anchored = true;
  }
  // Nothing left to match ("/" alone): it names the root itself, which is never an entry.
  if (body === '') return () => negated;
  // `**/*.ts` matches exactly the entries whose name matches `*.ts`: test the name the walk already
  // has rather than the path. It stays a glob (a plain word after `**/` is no substring search).
  const anyDepth = nameAtAnyDepth(body);
  if (anyDepth !== undefined) body = anyDepth;
  const onName = anyDepth !== undefined || (!anchored && !body.includes('/'));
  let test: (text: string) => boolean;
  if (options.substring && onName && anyDepth === undefined && !negated && !hasGlobSyntax(body)) {
    const needle = body.toLowerCase();
    test = (name) => name.toLowerCase().includes(needle);
  } else {
    const glob = compileGlobTest(body, { nocase: NOCASE });
    test = negated ? (text) => !glob(text) : glob;
  }
  if (onName) return (_relative, name, isDirectory) => (!directoriesOnly || isDirectory) && test(name);
  return (relative, _name, isDirectory) => (!directoriesOnly || isDirectory) && test(relative);
}

/** The name pattern of `**\/name` (any number of leading `**\/`), or undefined for any other shape. */
function nameAtAnyDepth(body: string): string | undefined {
  let rest = body;
  while (rest.startsWith('**/')) rest = rest.slice(3);
  if (rest === body || rest === '' || rest === '**' || rest.includes('/')) return undefined;
  return rest;
}

/**
 * Compiles a list of exclude globs (see {@link compileGlob} for the rules) into one test that is
 * true when any of them matches; `undefined` for an empty list, so walks without excludes pay nothing.
 */
export function compileExcludes(patterns: readonly string[] | undefined): EntryMatcher | undefined {
  const tests = (patterns ?? []).filter((p) => p.length > 0).map((p) => compileGlob(p));
  if (tests.length === 0) return undefined;
  return (relative, name, isDirectory) => tests.some((test) => test(relative, name, isDirectory));
}
