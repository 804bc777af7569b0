import type { CursorCodec, JsonValue } from './cursor-codec.js';
import { assertPageSize } from './page-size.js';

/** Position stored in an array cursor: where the next page starts, and the key of the item before it. */
export interface ArrayPosition {
  [key: string]: JsonValue;
  offset: number;
  /** `keyOf` of the last item sent, so the next page still starts right when items were removed. */
  after: string;
}

export interface PaginateArrayOptions<T> {
  codec: CursorCodec;
  /** Name the cursor is bound to, e.g. `'tools/list'` or `'search_files'`. */
  list: string;
  /** The client's cursor; `undefined` for the first page. */
  cursor: string | undefined;
  pageSize: number;
  /**
   * A stable, unique key per item (a tool's name, a resource's URI). With it, a page resumes after
   * the last item the client saw even if items before it were removed since; without it, by offset.
   */
  keyOf?: (item: T) => string;
}

export interface Page<T> {
  page: T[];
  /** Present only when more items follow. */
  nextCursor?: string;
}

/**
 * Cuts one page out of a complete array, with an opaque cursor to the next.
 *
 * @example
 * ```ts
 * const hits = ['a.md', 'b.md', 'c.md'];
 * const options = { codec: app.cursors, list: 'search_files', pageSize: 2 };
 * const { page, nextCursor } = paginateArray(hits, { ...options, cursor: undefined }); // ['a.md', 'b.md']
 * paginateArray(hits, { ...options, cursor: nextCursor }).page; // ['c.md']
 * ```
 */
export function paginateArray<T>(items: readonly T[], options: PaginateArrayOptions<T>): Page<T> {
  const { codec, list, cursor, pageSize, keyOf } = options;
  assertPageSize(pageSize);
  const start =
    cursor === undefined ? 0 : resumeIndex(items, codec.decode(list, cursor, isArrayPosition), keyOf);
  const page = items.slice(start, start + pageSize);
  const end = start + page.length;
  const last = page.at(-1);
  if (end >= items.length || last === undefined) return { page };
  const position: ArrayPosition = { offset: end, after: keyOf ? keyOf(last) : '' };
  return { page, nextCursor: codec.encode(list, position) };
}

function resumeIndex<T>(items: readonly T[], position: ArrayPosition, keyOf?: (item: T) => string): number {
  const { offset, after } = position;
  if (!keyOf || after === '') return offset;
  const previous = items[offset - 1];
  if (previous !== undefined && keyOf(previous) === after) return offset;
  // The list changed under the client: find where the last seen item went. If it is gone, the offset
  // is the best guess left (it may repeat or skip an item; the list_changed notification says why).
  const moved = items.findIndex((item) => keyOf(item) === after);
  return moved === -1 ? offset : moved + 1;
}

function isArrayPosition(value: JsonValue): value is ArrayPosition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { offset, after } = value;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) return false;
  return typeof after === 'string';
}
