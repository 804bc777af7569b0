import { UserError } from '@mcpkit/core/errors';
import { findBlocks, type LineTable, lineTable, reindenter, splitLines } from './edit-lines.js';

/** One replacement, as edit_file takes it. */
export interface Edit {
  oldText: string;
  newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean | undefined;
}

/** How one edit matched: `line` (and `endLine`) are 1-based, in the text as that edit saw it. */
export interface AppliedEdit {
  /** Position of the edit in the list, from 0. */
  index: number;
  /** `exact` (line endings aside) or `whitespace` (indentation and trailing blanks ignored, then re-indented). */
  mode: 'exact' | 'whitespace';
  /** How many places were replaced. */
  count: number;
  /** First line of the first match. */
  line: number;
  /** Last line of the first match. */
  endLine: number;
}

/** The edited text and how each edit matched. */
export interface EditResult {
  text: string;
  applied: AppliedEdit[];
}

const BOM = '\uFEFF';
const MAX_LISTED_LINES = 10;

/**
 * Applies `edits` to `text` in order, all or nothing: the first edit that cannot be applied throws a
 * `UserError` naming it and why, and the caller writes nothing. An edit matches exactly (after its
 * line endings are made the file's) and must be unique unless `replaceAll`; failing that, it matches
 * line by line with surrounding whitespace ignored, and its `newText` is re-indented to the lines it
 * matched. The file's dominant line ending, a byte order mark and a missing final newline survive.
 *
 * @example
 * ```ts
 * applyEdits('a\n  b\n', [{ oldText: 'b', newText: 'c' }]).text; // 'a\n  c\n'
 * ```
 */
export function applyEdits(text: string, edits: readonly Edit[]): EditResult {
  const bom = text.startsWith(BOM) ? BOM : '';
  const original = text.slice(bom.length);
  const eol = dominantEol(original);
  let current = original;
  const applied: AppliedEdit[] = [];
  for (const [index, edit] of edits.entries()) {
    const label = describeEdit(index, edits.length, edit.oldText);
    if (edit.oldText.length === 0) {
      throw new UserError(`${label} has an empty oldText; copy the lines to replace from the file.`);
    }
    const step =
      replaceExact(current, edit, eol, label, index) ?? replaceLoose(current, edit, eol, label, index);
    current = step.text;
    applied.push(step.applied);
  }
  // Editing the last line must not add a final newline the file never had.
  if (!original.endsWith('\n') && current.endsWith('\n')) current = current.replace(/\r?\n$/, '');
  return { text: bom + current, applied };
}

/** The line ending most lines of `text` use; LF when there are none. */
export function dominantEol(text: string): '\n' | '\r\n' {
  // Most files have no CR LF at all, and one native search says so.
  if (!text.includes('\r\n')) return '\n';
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** The 1-based line of each offset in `sorted` (ascending), counting newlines once through the text. */
function linesAt(text: string, sorted: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const offset of sorted) {
    while (at !== -1 && at < offset) {
      line++;
      at = text.indexOf('\n', at + 1);
    }
    lines.push(line);
  }
  return lines;
}

function newlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

function withEol(value: string, eol: string): string {
  return value.replace(/\r?\n/g, eol);
}

interface Step {
  text: string;
  applied: AppliedEdit;
}

function replaceExact(text: string, edit: Edit, eol: string, label: string, index: number): Step | undefined {
  // The model usually sends LF; the file's own ending is tried first, the text as sent second.
  const candidates = [...new Set([withEol(edit.oldText, eol), edit.oldText])];
  for (const needle of candidates) {
    const starts = occurrences(text, needle);
    if (starts.length === 0) continue;
    // Line numbers are counted only as far as needed: a line table of the whole text costs more.
    if (starts.length > 1 && !edit.replaceAll)
      throw ambiguous(label, index, linesAt(text, starts), 'exactly');
    const chosen = edit.replaceAll ? nonOverlapping(starts, needle.length) : starts;
    const replacement = withEol(edit.newText, eol);
    let out = '';
    let from = 0;
    for (const s of chosen) {
      out += text.slice(from, s) + replacement;
      from = s + needle.length;
    }
    out += text.slice(from);
    const [line] = linesAt(text, [starts[0]!]) as [number];
    return {
      text: out,
      applied: {
        index,
        mode: 'exact',
        count: chosen.length,
        line,
        // The match's last character is on its first line plus the newlines before that character.
        endLine: line + newlines(needle.slice(0, -1)),
      },
    };
  }
  return undefined;
}

function replaceLoose(text: string, edit: Edit, eol: string, label: string, index: number): Step {
  const oldLines = splitLines(edit.oldText);
  if (oldLines.every((l) => l.trim() === '')) {
    throw new UserError(
      `${label}: its oldText is only whitespace and does not occur exactly; include the lines around it.`,
    );
  }
  const table = lineTable(text);
  const starts = findBlocks(table, oldLines);
  if (starts.length === 0) throw notFound(label, table, oldLines);
  if (starts.length > 1 && !edit.replaceAll) {
    throw ambiguous(
      label,
      index,
      starts.map((s) => s + 1),
      'when whitespace is ignored',
    );
  }
  const chosen = edit.replaceAll ? nonOverlapping(starts, oldLines.length) : starts;
  const newLines = splitLines(edit.newText);
  let out = text;
  // From the last block back, so earlier offsets stay valid.
  for (const start of [...chosen].reverse()) {
    const matched = table.lines.slice(start, start + oldLines.length);
    const indent = reindenter(oldLines, matched);
    const replacement = newLines.map(indent).join(eol);
    out = spliceLines(out, table, start, start + oldLines.length, replacement, newLines.length === 0);
  }
  const first = starts[0]!;
  return {
    text: out,
    applied: {
      index,
      mode: 'whitespace',
      count: chosen.length,
      line: first + 1,
      endLine: first + oldLines.length,
    },
  };
}

// Replaces lines [from, to) (0-based) with `replacement`, keeping the block's own line terminator.
// Deleting removes the lines with their terminator, so no blank line is left behind.
function spliceLines(
  text: string,
  table: LineTable,
  from: number,
  to: number,
  replacement: string,
  remove: boolean,
): string {
  const start = table.starts[from]!;
  const end = table.contentEnd(to - 1);
  if (!remove) return text.slice(0, start) + replacement + text.slice(end);
  const next = table.nextStart(to - 1);
  if (next > end) return text.slice(0, start) + text.slice(next);
  // The block ends the file without a newline: take the line ending before it instead.
  const before = from > 0 ? table.contentEnd(from - 1) : 0;
  return text.slice(0, before) + text.slice(end);
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function nonOverlapping(starts: readonly number[], length: number): number[] {
  const kept: number[] = [];
  for (const s of starts) if (kept.length === 0 || s >= kept[kept.length - 1]! + length) kept.push(s);
  return kept;
}

function describeEdit(index: number, total: number, oldText: string): string {
  const firstLine = oldText.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const preview = firstLine
    .trim()
    .slice(0, 40)
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  const quoted = preview ? ` (${JSON.stringify(preview + (firstLine.trim().length > 40 ? '…' : ''))})` : '';
  return `Edit ${index + 1} of ${total}${quoted}`;
}

function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, MAX_LISTED_LINES).join(', ');
  return lines.length > MAX_LISTED_LINES ? `${shown} and ${lines.length - MAX_LISTED_LINES} more` : shown;
}

function ambiguous(label: string, index: number, lines: readonly number[], how: string): UserError {
  const after = index > 0 ? ' (counted after the earlier edits)' : '';
  return new UserError(
    `${label} matches ${lines.length} places ${how}, at lines ${listLines(lines)}${after}; nothing was changed. Add surrounding lines to oldText to make it unique, or set replaceAll: true to replace every one.`,
  );
}

function notFound(label: string, table: LineTable, oldLines: readonly string[]): UserError {
  const firstOld = oldLines.find((l) => l.trim() !== '')?.trim() ?? '';
  const near = table.lines.flatMap((l, i) => (l.trim() === firstOld ? [i + 1] : []));
  const hint =
    near.length > 0
      ? ` Its first line appears at line ${listLines(near)}, but the lines after it differ.`
      : '';
  return new UserError(
    `${label} was not found, not even with whitespace ignored; nothing was changed.${hint} Read the file again and copy oldText exactly.`,
  );
}
