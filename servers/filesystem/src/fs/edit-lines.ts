/**
 * Line bookkeeping for the whitespace-tolerant side of `applyEdits`: where each line starts and ends
 * (CRLF or LF), finding a block of lines with surrounding whitespace ignored, and re-indenting the
 * replacement to the lines it matched.
 */

/** The lines of a text with their offsets; a final newline does not start another line. */
export interface LineTable {
  /** Line contents, without their line ending. */
  readonly lines: readonly string[];
  /** Offset of each line's first character. */
  readonly starts: readonly number[];
  /** Offset just past each line's content (before its CR LF or LF). */
  contentEnd(line: number): number;
  /** Offset just past each line's ending (equal to `contentEnd` for a last line without one). */
  nextStart(line: number): number;
  /** The 1-based line holding `offset`. */
  lineAt(offset: number): number;
}

/** Builds the {@link LineTable} of `text`. */
export function lineTable(text: string): LineTable {
  const lines: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const nexts: number[] = [];
  let from = 0;
  while (from < text.length || (from === 0 && text.length === 0)) {
    const nl = text.indexOf('\n', from);
    const stop = nl === -1 ? text.length : nl;
    const end = stop > from && text[stop - 1] === '\r' && nl !== -1 ? stop - 1 : stop;
    lines.push(text.slice(from, end));
    starts.push(from);
    ends.push(end);
    nexts.push(nl === -1 ? stop : nl + 1);
    if (nl === -1) break;
    from = nl + 1;
  }
  return {
    lines,
    starts,
    contentEnd: (line) => ends[line] ?? text.length,
    nextStart: (line) => nexts[line] ?? text.length,
    lineAt(offset) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    },
  };
}

/** Lines of an edit's text; a trailing newline ends the last line rather than adding an empty one. */
export function splitLines(value: string): string[] {
  if (value === '') return [];
  const parts = value.split(/\r?\n/);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Every 0-based line where `block` starts, comparing lines with surrounding whitespace ignored. */
export function findBlocks(table: LineTable, block: readonly string[]): number[] {
  const wanted = block.map((l) => l.trim());
  const have = table.lines.map((l) => l.trim());
  const found: number[] = [];
  for (let start = 0; start + wanted.length <= have.length; start++) {
    if (wanted.every((w, i) => have[start + i] === w)) found.push(start);
  }
  return found;
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/**
 * A function that re-indents line `i` of `newText` for a block matched loosely. Each indentation
 * used in `oldText` is mapped to the indentation of the file line it matched, so a replacement
 * written in the model's own style (spaces for tabs, shifted) lands at the file's levels and keeps
 * its relative structure. When the model flattened `oldText`, one of its levels stands for several
 * of the file's; the old line nearest to the new one decides, which is right for the usual in-place
 * change. Blank lines become empty.
 */
export function reindenter(
  oldLines: readonly string[],
  matched: readonly string[],
): (line: string, index: number) => string {
  const levels = new Map<string, { at: number; indent: string }[]>();
  oldLines.forEach((line, at) => {
    if (line.trim() === '') return;
    const key = indentOf(line);
    const seen = levels.get(key) ?? [];
    seen.push({ at, indent: indentOf(matched[at] ?? '') });
    levels.set(key, seen);
  });
  const known = [...levels.keys()].sort((a, b) => b.length - a.length);
  const shallowest = known[known.length - 1] ?? '';
  const nearest = (key: string, index: number): string => {
    const choices = levels.get(key) ?? [];
    let best = choices[0];
    for (const c of choices) if (best && Math.abs(c.at - index) < Math.abs(best.at - index)) best = c;
    return best?.indent ?? '';
  };
  return (line, index) => {
    if (line.trim() === '') return '';
    const own = indentOf(line);
    const body = line.slice(own.length);
    const base = known.find((k) => own.startsWith(k));
    if (base !== undefined) return nearest(base, index) + own.slice(base.length) + body;
    // Shallower than anything in the block: step back from the block's shallowest level.
    const target = nearest(shallowest, index);
    const drop = shallowest.length - own.length;
    return target.slice(0, Math.max(0, target.length - drop)) + body;
  };
}
