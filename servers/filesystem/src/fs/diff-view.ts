import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

/** Context lines around each change, as git shows them. */
const CONTEXT = 3;

/** Longest time spent computing a diff; a line diff is quadratic in the number of changed lines. */
const DIFF_TIMEOUT_MS = 1000;

/** Characters compared at a time while looking for the shared start and end: slices compare natively. */
const CHUNK = 256;

/** Length of the longest common start of `a` and `b`. */
function sharedStart(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let at = 0;
  while (at + CHUNK <= max && a.slice(at, at + CHUNK) === b.slice(at, at + CHUNK)) at += CHUNK;
  while (at < max && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** Length of the longest common end of `a` and `b`, at most `max`. */
function sharedEnd(a: string, b: string, max: number): number {
  let n = 0;
  while (
    n + CHUNK <= max &&
    a.slice(a.length - n - CHUNK, a.length - n) === b.slice(b.length - n - CHUNK, b.length - n)
  )
    n += CHUNK;
  while (n < max && a.charCodeAt(a.length - n - 1) === b.charCodeAt(b.length - n - 1)) n++;
  return n;
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/** Where the line `n` lines before the line starting at `at` starts (0 at the most). */
function linesBack(text: string, at: number, n: number): number {
  let start = at;
  // The line before starts after the newline that ends the one before it (none: at 0).
  for (let i = 0; i < n && start > 0; i++) start = start < 2 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
  return start;
}

/** Where the line `n` lines after the line starting at `at` starts (the end at the most). */
function linesOn(text: string, at: number, n: number): number {
  let end = at;
  for (let i = 0; i < n && end < text.length; i++) {
    const nl = text.indexOf('\n', end);
    end = nl === -1 ? text.length : nl + 1;
  }
  return end;
}

/**
 * A git-style unified diff of `before` → `after`, with `name` on both file headers. Whole lines the
 * two texts share at the start and end are set aside before diffing (found by comparing characters,
 * without splitting the texts), so an edit in a big file costs what the edit costs; a change too
 * large to diff within a second gives `undefined`.
 *
 * @example
 * ```ts
 * unifiedDiff('notes/a.md', 'a\nb\n', 'a\nc\n'); // '--- notes/a.md\toriginal\n+++ …\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 * ```
 */
export function unifiedDiff(name: string, before: string, after: string): string | undefined {
  let skipLines = 0;
  let from = 0;
  // Nothing differs: nothing to diff, and the patch is its two headers.
  let endA = 0;
  let endB = 0;
  if (before !== after) {
    // Whole lines before the first differing character are shared; keep the context hunks show.
    const first = sharedStart(before, after);
    const head = first === 0 ? 0 : before.lastIndexOf('\n', first - 1) + 1;
    from = linesBack(before, head, CONTEXT);
    skipLines = countLines(before, 0, from);
    // Whole lines after the last differing character, not reaching back into the shared head.
    const shared = sharedEnd(before, after, Math.min(before.length, after.length) - head);
    const atA = before.length - shared;
    const atB = after.length - shared;
    const lineStartsBoth =
      (atA === head || before.charCodeAt(atA - 1) === 10) &&
      (atB === head || after.charCodeAt(atB - 1) === 10);
    const nl = before.indexOf('\n', atA);
    const tail = lineStartsBoth ? atA : nl === -1 ? before.length : nl + 1;
    endA = linesOn(before, tail, CONTEXT);
    endB = endA + after.length - before.length;
  }
  const patch = structuredPatch(
    name,
    name,
    before.slice(from, endA),
    after.slice(from, endB),
    'original',
    'modified',
    { context: CONTEXT, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) return undefined;
  for (const hunk of patch.hunks) {
    hunk.oldStart += skipLines;
    hunk.newStart += skipLines;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}
