import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';

/** Context lines around each change, as git shows them. */
const CONTEXT = 3;

/** Longest time spent computing a diff; a line diff is quadratic in the number of changed lines. */
const DIFF_TIMEOUT_MS = 1000;

function linesWithEndings(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * A git-style unified diff of `before` → `after`, with `name` on both file headers. Lines the two
 * texts share at the start and end are set aside before diffing, so an edit in a big file costs
 * what the edit costs; a change too large to diff within a second gives `undefined`.
 *
 * @example
 * ```ts
 * unifiedDiff('notes/a.md', 'a\nb\n', 'a\nc\n'); // '--- notes/a.md\toriginal\n+++ …\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 * ```
 */
export function unifiedDiff(name: string, before: string, after: string): string | undefined {
  const a = linesWithEndings(before);
  const b = linesWithEndings(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  // Keep the context lines the hunks will show; the rest only shifts line numbers.
  const skip = Math.max(0, head - CONTEXT);
  const drop = Math.max(0, tail - CONTEXT);
  const patch = structuredPatch(
    name,
    name,
    a.slice(skip, a.length - drop).join(''),
    b.slice(skip, b.length - drop).join(''),
    'original',
    'modified',
    { context: CONTEXT, timeout: DIFF_TIMEOUT_MS },
  );
  if (patch === undefined) return undefined;
  for (const hunk of patch.hunks) {
    hunk.oldStart += skip;
    hunk.newStart += skip;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}
