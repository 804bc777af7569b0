import { utf8ByteLength } from './utf8.js';

/** What a caller's hint can use to say where the rest starts. */
export interface ShownPart {
  /** UTF-8 bytes of the original shown. */
  bytes: number;
  /** UTF-16 code units of the original shown: the offset to resume at with `String#slice`. */
  chars: number;
}

/** The caller's "how to get the rest": fixed text, or built from what was shown. */
export type Continuation<S extends ShownPart = ShownPart> = string | ((shown: S) => string);

/** Builds the notice line appended to truncated output. */
export function truncationMarker(summary: string, hint: string): string {
  const tail = hint.trim();
  return `\n[truncated: ${summary}.${tail === '' ? '' : ` ${tail}`}]`;
}

export function resolveHint<S extends ShownPart>(
  continuation: Continuation<S> | undefined,
  shown: S,
): string {
  if (continuation === undefined) return '';
  return typeof continuation === 'string' ? continuation : continuation(shown);
}

/**
 * Finds the largest cut whose content plus notice fits in `limit`. The notice depends on the cut
 * (it states the shown size, and the hint may carry an offset), so this retries with the budget
 * shrunk by the notice's size; it settles in one or two rounds because a smaller cut never makes
 * the notice longer by more than a digit.
 */
export function fitWithMarker<S extends ShownPart>(
  limit: number,
  cut: (budget: number) => S,
  marker: (shown: S) => string,
): { shown: S; marker: string } {
  let budget = limit;
  for (let round = 0; round < 8 && budget >= 0; round++) {
    const shown = cut(budget);
    const notice = marker(shown);
    const noticeBytes = utf8ByteLength(notice);
    if (shown.bytes + noticeBytes <= limit) return { shown, marker: notice };
    budget = Math.min(budget - 1, limit - noticeBytes);
  }
  // The notice alone is larger than the limit: show nothing rather than say nothing.
  const shown = cut(0);
  return { shown, marker: marker(shown) };
}
