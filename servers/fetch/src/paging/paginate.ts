/**
 * `start_index` / `max_length` paging with the official fetch server's semantics: both count
 * characters (Unicode code points, as Python's `len` does, so an emoji is one character and is
 * never cut in half), and a page that stops before the end says which `start_index` continues.
 */
import { UserError } from '@mcpkit/core/errors';

/** One page of a text. */
export interface TextPage {
  /** The characters of this page ('' past the end). */
  text: string;
  startIndex: number;
  /** Characters in the whole text. */
  totalChars: number;
  /** Where the next page starts, when there is more. */
  nextStartIndex?: number;
  /** True when `startIndex` is at or past the end: there is nothing to show. */
  exhausted: boolean;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Code units of the code point at `unit`: 2 for a surrogate pair, else 1 (as string iteration counts). */
function width(text: string, unit: number): number {
  const code = text.charCodeAt(unit);
  if (code < 0xd800 || code > 0xdbff) return 1;
  const next = text.charCodeAt(unit + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** UTF-16 offsets of code points `from` and `from + count` (clamped to the end). */
function codeUnitRange(text: string, from: number, count: number): [number, number, number] {
  let unit = 0;
  let point = 0;
  let start = -1;
  while (unit < text.length) {
    if (point === from) start = unit;
    if (point === from + count) break;
    unit += width(text, unit);
    point++;
  }
  // Keep counting to know the total number of code points.
  let total = point;
  for (let rest = unit; rest < text.length; total++) rest += width(text, rest);
  return [start === -1 ? text.length : start, unit, total];
}

/**
 * Cuts one page out of `text`.
 *
 * @example
 * ```ts
 * paginate('abcdef', 0, 4); // { text: 'abcd', nextStartIndex: 4, totalChars: 6, ... }
 * ```
 */
export function paginate(text: string, startIndex: number, maxLength: number): TextPage {
  if (!Number.isSafeInteger(startIndex) || startIndex < 0)
    throw new UserError(`start_index must be a whole number from 0 up; ${startIndex} was given.`);
  if (!Number.isSafeInteger(maxLength) || maxLength < 1)
    throw new UserError(`max_length must be a whole number from 1 up; ${maxLength} was given.`);
  let slice: string;
  let totalChars: number;
  if (!SURROGATE.test(text)) {
    slice = text.slice(startIndex, startIndex + maxLength);
    totalChars = text.length;
  } else {
    const [from, to, total] = codeUnitRange(text, startIndex, maxLength);
    slice = text.slice(from, to);
    totalChars = total;
  }
  if (startIndex >= totalChars || slice === '') return { text: '', startIndex, totalChars, exhausted: true };
  const shown = startIndex + (SURROGATE.test(slice) ? [...slice].length : slice.length);
  const more = shown < totalChars && shown - startIndex === maxLength;
  return {
    text: slice,
    startIndex,
    totalChars,
    exhausted: false,
    ...(more ? { nextStartIndex: shown } : {}),
  };
}

/**
 * The official tool text for a page: the content, then the continuation hint when there is
 * more, or the official "no more content" error past the end.
 */
export function pageBody(page: TextPage): string {
  if (page.exhausted) return '<error>No more content available.</error>';
  if (page.nextStartIndex === undefined) return page.text;
  return `${page.text}\n\n<error>Content truncated. Call the fetch tool with a start_index of ${page.nextStartIndex} to get more content.</error>`;
}
