import { UserError } from '@mcpkit/core/errors';
import { type Atom, compileName, type NameTest } from './glob-name.js';

/**
 * Glob matching without regular expressions. A glob compiled to a regex (as picomatch and the
 * `ignore` package do) backtracks: `*a*a*a*a*a*a*b` against a long name of `a`s, or
 * `**\/x/**\/x/**\/y` against a deep `x/x/x/…` path, takes minutes on the server's only thread,
 * and a regex cannot be interrupted. Here a name is matched by literal pieces or the greedy
 * wildcard algorithm (`glob-name.ts`) and a path by the same algorithm over its segments, so one
 * test costs at most (pattern length) × (path length) steps, whatever the pattern.
 *
 * Syntax: `*` (any run of characters within a name), `?` (one character), `[abc]`, `[a-z]`,
 * `[!a]` / `[^a]`, `\` to escape, `**` as a whole segment (any number of directories, none
 * included), and `{a,b}` / `{1..3}` alternatives (expanded, at most {@link MAX_ALTERNATIVES}).
 * `(`, `)`, `|`, `+`, `@` and `!` are ordinary characters (extended globs are not supported).
 */

/** Most alternatives `{…}` groups may expand a pattern to. */
export const MAX_ALTERNATIVES = 64;

/** One segment of a pattern: `**`, or a name pattern. */
type Segment = { kind: 'globstar' } | { kind: 'name'; atoms: Atom[] };

/** How a compiled glob compares characters and what a trailing `**` needs. */
export interface GlobMatchOptions {
  /** Compare case-insensitively. */
  nocase?: boolean;
  /** A trailing `**` matches one or more segments, not zero (gitignore's `dir/**`: what is inside). */
  trailingGlobstarNeedsOne?: boolean;
  /** Expand `{a,b}` groups (default true; git does not, so its rules keep them as written). */
  braces?: boolean;
}

/** Tests a `/`-separated path (no leading or trailing slash) or a single name. */
export type GlobTest = (path: string) => boolean;

/**
 * Compiles `pattern` (its `{…}` groups expanded) into a test of whole paths: segment by segment,
 * `**` spanning directories.
 *
 * @example compileGlobTest('src/**\/*.ts')('src/a/b.ts') // true
 */
export function compileGlobTest(pattern: string, options: GlobMatchOptions = {}): GlobTest {
  const expanded = options.braces === false ? [pattern] : expandBraces(pattern);
  const tests = expanded.map((alt) => compileSegments(parseSegments(alt, options), options.nocase ?? false));
  const nocase = options.nocase ?? false;
  if (tests.length === 1) {
    const only = tests[0]!;
    return nocase ? (path) => only(path.toLowerCase()) : only;
  }
  return (path) => {
    const text = nocase ? path.toLowerCase() : path;
    return tests.some((test) => test(text));
  };
}

/**
 * The test of one alternative. The shapes searches use most are decided without splitting the
 * path: `**\/*.ts` looks only at the last name, and a pattern without `**` needs exactly as many
 * segments as it has.
 */
function compileSegments(segments: readonly Segment[], nocase: boolean): GlobTest {
  const names = segments.map((s) => (s.kind === 'name' ? compileName(s.atoms, nocase) : undefined));
  const globstars = segments.filter((s) => s.kind === 'globstar').length;
  if (segments.length === 0) return () => false;
  if (globstars === segments.length) return () => true;
  if (globstars === 1 && segments.length === 2 && segments[0]!.kind === 'globstar') {
    const last = names[1]!;
    return (path) => last(path.slice(path.lastIndexOf('/') + 1));
  }
  if (globstars === 0) {
    if (segments.length === 1) {
      const only = names[0]!;
      return (path) => !path.includes('/') && only(path);
    }
    return (path) => {
      const parts = path.split('/');
      return parts.length === names.length && parts.every((part, i) => names[i]!(part));
    };
  }
  return (path) => matchSegments(names, path.split('/'));
}

/** True when `pattern` holds a glob character (`*`, `?`, `[`, `{`) that is not escaped. */
export function hasGlobSyntax(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') i++;
    else if (ch === '*' || ch === '?' || ch === '[' || ch === '{') return true;
  }
  return false;
}

function parseSegments(pattern: string, options: GlobMatchOptions): Segment[] {
  const segments: Segment[] = [];
  for (const part of splitSegments(pattern)) {
    if (part === '**') {
      // Two globstars in a row mean the same as one.
      if (segments.at(-1)?.kind !== 'globstar') segments.push({ kind: 'globstar' });
    } else {
      segments.push({ kind: 'name', atoms: parseAtoms(part, options.nocase ?? false) });
    }
  }
  if (options.trailingGlobstarNeedsOne && segments.at(-1)?.kind === 'globstar') {
    segments.push({ kind: 'name', atoms: [{ kind: 'star' }] });
  }
  return segments;
}

// Splits on unescaped `/` (and not inside a bracket expression); empty segments are dropped.
function splitSegments(pattern: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      current += ch + pattern[i + 1];
      i++;
    } else if (ch === '/') {
      if (current !== '') parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current !== '') parts.push(current);
  return parts;
}

function parseAtoms(segment: string, nocase: boolean): Atom[] {
  const input = Array.from(segment);
  const atoms: Atom[] = [];
  const fold = (ch: string) => (nocase ? ch.toLowerCase() : ch);
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch === '\\') {
      atoms.push({ kind: 'char', ch: fold(input[i + 1] ?? '\\') });
      i++;
    } else if (ch === '*') {
      // A run of stars inside a name is one star.
      if (atoms.at(-1)?.kind !== 'star') atoms.push({ kind: 'star' });
    } else if (ch === '?') {
      atoms.push({ kind: 'any' });
    } else if (ch === '[') {
      const parsed = parseClass(input, i, fold);
      if (parsed) {
        atoms.push(parsed.atom);
        i = parsed.end;
      } else {
        atoms.push({ kind: 'char', ch: '[' });
      }
    } else {
      atoms.push({ kind: 'char', ch: fold(ch) });
    }
  }
  return atoms;
}

// A bracket expression starting at `start` ('['), or undefined when it is not closed.
function parseClass(
  input: readonly string[],
  start: number,
  fold: (ch: string) => string,
): { atom: Atom; end: number } | undefined {
  let i = start + 1;
  const negated = input[i] === '!' || input[i] === '^';
  if (negated) i++;
  let singles = '';
  const ranges: [string, string][] = [];
  let first = true;
  for (; i < input.length; i++) {
    let ch = input[i]!;
    if (ch === ']' && !first) return { atom: { kind: 'class', negated, singles, ranges }, end: i };
    first = false;
    if (ch === '\\' && i + 1 < input.length) ch = input[++i]!;
    if (input[i + 1] === '-' && input[i + 2] !== undefined && input[i + 2] !== ']') {
      let to = input[i + 2]!;
      i += 2;
      if (to === '\\' && i + 1 < input.length) to = input[++i]!;
      ranges.push([fold(ch), fold(to)]);
    } else {
      singles += fold(ch);
    }
  }
  return undefined;
}

/**
 * The greedy wildcard algorithm over segments (`undefined` is `**`): on a mismatch, go back to the
 * last `**` and let it take one more segment. Each (pattern position, path position) pair is
 * visited at most once per `**`, so the work is bounded by the product of the lengths.
 */
function matchSegments(names: readonly (NameTest | undefined)[], parts: readonly string[]): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < parts.length) {
    const inPattern = p < names.length;
    const current = names[p];
    if (inPattern && current === undefined) {
      starP = p++;
      starT = t;
    } else if (current?.(parts[t]!)) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < names.length && names[p] === undefined) p++;
  return p === names.length;
}

/**
 * The alternatives of a pattern's `{a,b}` and `{1..3}` groups (nested groups too). A group without
 * a comma or a range is kept as written. Throws a `UserError` past {@link MAX_ALTERNATIVES}.
 *
 * @example expandBraces('src/{a,b}/*.{ts,js}') // 4 patterns
 */
export function expandBraces(pattern: string): string[] {
  const group = findGroup(pattern);
  if (!group) return [pattern];
  const head = pattern.slice(0, group.open);
  const tail = pattern.slice(group.close + 1);
  const out: string[] = [];
  for (const option of group.options) {
    for (const expanded of expandBraces(head + option + tail)) {
      out.push(expanded);
      if (out.length > MAX_ALTERNATIVES) {
        throw new UserError(
          `The pattern has more than ${MAX_ALTERNATIVES} alternatives in its {…} groups; use fewer or narrower groups.`,
        );
      }
    }
  }
  return out;
}

// The first top-level `{…}` with a comma or a range, with its options.
function findGroup(pattern: string): { open: number; close: number; options: string[] } | undefined {
  for (let open = 0; open < pattern.length; open++) {
    const ch = pattern[open];
    if (ch === '\\') {
      open++;
      continue;
    }
    if (ch !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '\\') {
        i++;
      } else if (c === '{') {
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth === 0) {
          const body = pattern.slice(open + 1, i);
          if (commas.length > 0) {
            const cuts = [open, ...commas, i];
            const options = cuts.slice(0, -1).map((at, k) => pattern.slice(at + 1, cuts[k + 1]));
            return { open, close: i, options };
          }
          const range = rangeOptions(body);
          if (range) return { open, close: i, options: range };
          break;
        }
      } else if (c === ',' && depth === 1) {
        commas.push(i);
      }
    }
  }
  return undefined;
}

// `1..5`, `05..10`, `a..e` (and descending); undefined when the body is not a range.
function rangeOptions(body: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (numeric) {
    const from = Number(numeric[1]);
    const to = Number(numeric[2]);
    if (Math.abs(to - from) >= MAX_ALTERNATIVES) return tooMany();
    const width = /^-?0\d/.test(numeric[1]!) || /^-?0\d/.test(numeric[2]!) ? numeric[1]!.length : 0;
    const step = from <= to ? 1 : -1;
    const out: string[] = [];
    for (let n = from; step > 0 ? n <= to : n >= to; n += step) out.push(String(n).padStart(width, '0'));
    return out;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
  if (letters) {
    const from = letters[1]!.charCodeAt(0);
    const to = letters[2]!.charCodeAt(0);
    const step = from <= to ? 1 : -1;
    const out: string[] = [];
    for (let c = from; step > 0 ? c <= to : c >= to; c += step) out.push(String.fromCharCode(c));
    return out;
  }
  return undefined;
}

function tooMany(): never {
  throw new UserError(
    `The pattern has more than ${MAX_ALTERNATIVES} alternatives in its {…} groups; use fewer or narrower groups.`,
  );
}
