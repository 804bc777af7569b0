/**
 * A patch (`git diff` output) read as a list of files, without running git again: where each
 * file's part starts, which path it is (the name `--skip-to` takes), and how many lines it adds and
 * deletes, the overview `--numstat` used to cost a second diff for.
 *
 * A "unit" is what one changed file prints: usually one `diff --git` section, two when a file
 * changes type (the old one deleted, the new one created, under the same name). The commands
 * that print the patch pin the `a/` and `b/` prefixes, so a header names its file unambiguously.
 */
import type { FileStat } from './parse-numstat.js';
import { unquotePath } from './quoted-path.js';

/** Where one file's part of a patch lies, and which file it is. */
export interface PatchUnit {
  /** Offset of its first `diff` line. */
  start: number;
  /** Offset just past its last line (the next unit's start, or the end of the text). */
  end: number;
  /** The path after the change: what `--skip-to` names. */
  path: string;
  /** The path before a rename or copy. */
  from?: string;
  /** A conflicted file's combined diff (`diff --cc`): git prints these first, `--skip-to` or not. */
  combined?: true;
}

/** Offsets of the lines that open a file section: `diff --git`, or `diff --cc` for a conflict. */
function sectionStarts(text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  if (isSectionLine(text, 0)) starts.push(0);
  for (;;) {
    const nl = text.indexOf('\ndiff --', at);
    if (nl === -1) return starts;
    if (isSectionLine(text, nl + 1)) starts.push(nl + 1);
    at = nl + 1;
  }
}

function isSectionLine(text: string, at: number): boolean {
  return text.startsWith('diff --git ', at) || isCombinedLine(text, at);
}

function isCombinedLine(text: string, at: number): boolean {
  return text.startsWith('diff --cc ', at) || text.startsWith('diff --combined ', at);
}

/**
 * Where the combined diffs that open `text` end. Git prints the conflicted files' diffs before
 * every other file, whichever file `--skip-to` names, so a resumed page passes over them.
 */
export function afterCombined(text: string): number {
  let at = 0;
  while (at < text.length && isCombinedLine(text, at)) at = sectionAfter(text, at);
  return at;
}

/** The units of `text`, in order; text before the first section belongs to none. */
export function patchUnits(text: string): PatchUnit[] {
  const units: PatchUnit[] = [];
  const starts = sectionStarts(text);
  for (const [i, start] of starts.entries()) {
    const end = starts[i + 1] ?? text.length;
    const names = sectionNames(text, start, end);
    const last = units.at(-1);
    // A type change prints a deletion and a creation of the same path: one file, one unit.
    if (last && last.path === names.path && last.from === undefined && names.from === undefined) {
      last.end = end;
    } else {
      units.push({
        start,
        end,
        ...names,
        ...(isCombinedLine(text, start) ? { combined: true as const } : {}),
      });
    }
  }
  return units;
}

/**
 * The unit that holds offset `at` of `text`, found backwards from `at` so a page needs no scan of
 * what follows it; undefined before the first section.
 */
export function unitAt(text: string, at: number): PatchUnit | undefined {
  let start = sectionBefore(text, at);
  if (start === -1) return undefined;
  const end = sectionAfter(text, start);
  const names = sectionNames(text, start, end);
  if (names.from === undefined) {
    // The creation half of a type change: the unit starts at the deletion before it.
    const previous = sectionBefore(text, start - 1);
    if (previous !== -1) {
      const earlier = sectionNames(text, previous, start);
      if (earlier.from === undefined && earlier.path === names.path) start = previous;
    }
  }
  return { start, end, ...names, ...(isCombinedLine(text, start) ? { combined: true as const } : {}) };
}

/** The last section start at or before `at`, or -1. */
function sectionBefore(text: string, at: number): number {
  if (at < 0) return -1;
  if ((at === 0 || text.charCodeAt(at - 1) === 0x0a) && isSectionLine(text, at)) return at;
  for (let from = at - 1; from >= 0; ) {
    const nl = text.lastIndexOf('\ndiff --', from);
    if (nl === -1) break;
    if (isSectionLine(text, nl + 1)) return nl + 1;
    from = nl - 1;
  }
  return isSectionLine(text, 0) ? 0 : -1;
}

/** The first section start after the one at `start`, or the end of the text. */
function sectionAfter(text: string, start: number): number {
  for (let at = start; ; ) {
    const nl = text.indexOf('\ndiff --', at);
    if (nl === -1) return text.length;
    if (isSectionLine(text, nl + 1)) return nl + 1;
    at = nl + 1;
  }
}

/**
 * The overview of the complete units: lines added and deleted per file (`null` for a binary one),
 * counted on the hunk lines, as `--numstat` counts them.
 */
export function overviewOf(text: string, units: readonly PatchUnit[]): FileStat[] {
  return units.map((unit) => {
    const counts = countLines(text, unit.start, unit.end);
    return {
      path: unit.path,
      ...(unit.from !== undefined ? { from: unit.from } : {}),
      ...counts,
    };
  });
}

/** Added and deleted lines of the sections in `text[start, end)`. */
function countLines(
  text: string,
  start: number,
  end: number,
): { added: number | null; deleted: number | null } {
  let added = 0;
  let deleted = 0;
  let binary = false;
  // Header lines ("--- a/x", "+++ b/x") come before the first hunk and are not counted. A
  // combined diff (`diff --cc`, a conflict) marks each line with one column per parent: its first
  // column, against the current branch, is what `--numstat` counts.
  let inHunk = false;
  for (let at = start; at < end; ) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl === -1 || nl > end ? end : nl;
    const c = text.charCodeAt(at);
    if (c === 0x2b /* + */ && inHunk) added++;
    else if (c === 0x2d /* - */ && inHunk) deleted++;
    else if (c === 0x64 /* d */ && isSectionLine(text, at)) inHunk = false;
    else if (c === 0x40 /* @ */ && text.startsWith('@@', at)) inHunk = true;
    else if (!inHunk && (text.startsWith('Binary files ', at) || text.startsWith('GIT binary patch', at))) {
      binary = true;
    }
    at = lineEnd + 1;
  }
  return binary ? { added: null, deleted: null } : { added, deleted };
}

/** The paths a section names: from `rename to`/`copy to` when there, else from its header. */
function sectionNames(text: string, start: number, end: number): { path: string; from?: string } {
  const lineEnd = (at: number) => {
    const nl = text.indexOf('\n', at);
    return nl === -1 || nl > end ? end : nl;
  };
  const header = text.slice(start, lineEnd(start));
  let to: string | undefined;
  let from: string | undefined;
  let plus: string | undefined;
  let minus: string | undefined;
  for (let at = lineEnd(start) + 1; at < end; ) {
    const stop = lineEnd(at);
    const line = text.slice(at, stop);
    if (line.startsWith('@@') || line.startsWith('Binary files ') || isSectionLine(text, at)) break;
    // A file line ends with a tab when its name holds a space.
    const value = (prefix: string) => unquotePath(line.slice(prefix.length).replace(/\t$/, ''));
    if (line.startsWith('rename to ')) to = value('rename to ');
    else if (line.startsWith('copy to ')) to = value('copy to ');
    else if (line.startsWith('rename from ')) from = value('rename from ');
    else if (line.startsWith('copy from ')) from = value('copy from ');
    else if (line.startsWith('+++ ')) plus = value('+++ ');
    else if (line.startsWith('--- ')) minus = value('--- ');
    at = stop + 1;
  }
  if (to !== undefined && from !== undefined) return { path: to, from };
  if (header.startsWith('diff --cc ')) return { path: unquotePath(header.slice(10)) };
  if (header.startsWith('diff --combined ')) return { path: unquotePath(header.slice(16)) };
  const same = sameNames(header.slice('diff --git '.length));
  if (same !== undefined) return { path: same };
  // Not reached with the pinned prefixes; the file lines still name it.
  const side = plus !== undefined && plus !== '/dev/null' ? plus : (minus ?? '');
  return { path: side.replace(/^[ab]\//, '') };
}

/**
 * The name in `a/NAME b/NAME` (both halves the same, which is how git heads a file that was not
 * renamed): found by length, so a name with spaces or " b/" in it is still read right.
 */
function sameNames(rest: string): string | undefined {
  if (rest.startsWith('"')) {
    const close = closingQuote(rest);
    if (close === -1) return undefined;
    const left = unquotePath(rest.slice(0, close + 1));
    const right = unquotePath(rest.slice(close + 2));
    if (left.startsWith('a/') && right.startsWith('b/') && left.slice(2) === right.slice(2))
      return left.slice(2);
    return undefined;
  }
  if ((rest.length - 5) % 2 !== 0) return undefined;
  const name = rest.slice(2, 2 + (rest.length - 5) / 2);
  return rest === `a/${name} b/${name}` ? name : undefined;
}

/** Index of the quote that closes the quoted string `text` opens, or -1. */
function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
