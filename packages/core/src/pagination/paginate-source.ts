import type { CursorCodec, CursorPosition, PositionGuard } from './cursor-codec.js';
import { assertPageSize } from './page-size.js';
import type { Page } from './paginate-array.js';

/** One item of a resumable stream, with the position that resumes right after it. */
export interface SourceItem<T, P extends CursorPosition> {
  item: T;
  position: P;
}

/**
 * A resumable stream: started with `undefined` it yields from the beginning; started with a
 * position it yields what comes after that item, without re-reading what came before. A directory
 * walk, `git log`, or a keyset SQL query fits this shape.
 */
export type PageSource<T, P extends CursorPosition> = (
  from: P | undefined,
  signal?: AbortSignal,
) => AsyncIterable<SourceItem<T, P>>;

export interface PaginateSourceOptions<P extends CursorPosition> {
  codec: CursorCodec;
  /** Name the cursor is bound to, e.g. `'git_log'`. */
  list: string;
  /** The client's cursor; `undefined` for the first page. */
  cursor: string | undefined;
  pageSize: number;
  /** Stops the read between items; the source also receives it for its own I/O. */
  signal?: AbortSignal;
  /** Checks a decoded position before the source sees it. */
  isPosition?: PositionGuard<P>;
}

/**
 * Reads one page from a resumable stream. It takes `pageSize + 1` items to learn whether another
 * page exists, then stops the stream (its `finally` blocks run, so handles close); the next cursor
 * holds the position of the last item returned.
 *
 * @example
 * ```ts
 * import { readdir } from 'node:fs/promises';
 * const names: PageSource<string, { after: string }> = async function* (from) {
 *   for (const name of (await readdir(dir)).sort()) {
 *     if (from === undefined || name > from.after) yield { item: name, position: { after: name } };
 *   }
 * };
 * const options = { codec: app.cursors, list: 'ls', pageSize: 50 };
 * const { page, nextCursor } = await paginateSource(names, { ...options, cursor: undefined });
 * ```
 */
export async function paginateSource<T, P extends CursorPosition>(
  source: PageSource<T, P>,
  options: PaginateSourceOptions<P>,
): Promise<Page<T>> {
  const { codec, list, cursor, pageSize, signal, isPosition } = options;
  assertPageSize(pageSize);
  const from = cursor === undefined ? undefined : codec.decode(list, cursor, isPosition);
  signal?.throwIfAborted();

  const page: T[] = [];
  let last: P | undefined;
  let more = false;
  for await (const { item, position } of source(from, signal)) {
    if (page.length === pageSize) {
      more = true;
      break;
    }
    page.push(item);
    last = position;
    signal?.throwIfAborted();
  }
  if (!more || last === undefined) return { page };
  return { page, nextCursor: codec.encode(list, last) };
}
