import { createHash } from 'node:crypto';
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import {
  type CursorCodec,
  type CursorPosition,
  INVALID_CURSOR_MESSAGE,
  type Page,
  type PageSource,
  type PositionGuard,
  paginateSource,
} from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import { ProtocolError } from '@modelcontextprotocol/server';

/**
 * The cursor list name of one tool call: the tool plus a digest of the arguments that shape the
 * stream (directory, pattern, options). A cursor minted for one search is refused by any other,
 * instead of resuming a different walk at a meaningless place.
 */
export function cursorList(tool: string, shape: readonly unknown[]): string {
  const digest = createHash('sha256').update(JSON.stringify(shape)).digest('base64url');
  return `${tool}:${digest.slice(0, 22)}`;
}

/**
 * Bytes of text a page may fill: the output limit minus room for a header, notes and the
 * continuation line with its cursor (up to 4 KiB), so that line is never what gets cut.
 */
export function pageBudget(outputLimitBytes: number): number {
  return outputLimitBytes - Math.min(6 * 1024, Math.floor(outputLimitBytes / 2));
}

/** An item of a page together with the position that resumes right after it. */
export interface Positioned<T, P extends CursorPosition> {
  value: T;
  position: P;
}

/** How {@link boundedPage} reads and cuts a page: core's paging options plus a byte budget. */
export interface BoundedPageOptions<T, P extends CursorPosition> {
  codec: CursorCodec;
  list: string;
  cursor: string | undefined;
  pageSize: number;
  signal?: AbortSignal;
  isPosition?: PositionGuard<P>;
  /** Bytes the rendered items may take together (see {@link pageBudget}). */
  budgetBytes: number;
  /** The text of one item; items are joined with newlines. */
  render: (value: T) => string;
}

/** One page: the items kept, their text, and the cursor to the rest when there is more. */
export interface BoundedPage<T> {
  items: T[];
  /** `render` of each item. */
  texts: string[];
  nextCursor?: string;
}

/**
 * One page of a resumable source, bounded by count (`pageSize`, through core's `paginateSource`)
 * and by the size of its text. When the next item would pass the budget, the page ends at the last
 * item that fits and the cursor resumes right after it: nothing is skipped, and a huge directory
 * cannot blow the output limit. The source is not read past that item, so a walk stops where the
 * page is full instead of walking on to `pageSize` items that the next page would walk again. A
 * cursor that fails verification becomes a one-sentence error.
 *
 * @example
 * ```ts
 * const { items, texts, nextCursor } = await boundedPage(source, { codec, list, cursor, pageSize, budgetBytes, render });
 * ```
 */
export async function boundedPage<T, P extends CursorPosition>(
  source: PageSource<Positioned<T, P>, P>,
  options: BoundedPageOptions<T, P>,
): Promise<BoundedPage<T>> {
  const { codec, list, render, budgetBytes } = options;
  // Texts of the items read, in order; one more than the page when paginateSource reads ahead.
  const texts: string[] = [];
  let used = 0;
  let full = false;
  const bounded: PageSource<Positioned<T, P>, P> = async function* (from, signal) {
    for await (const item of source(from, signal)) {
      const text = render(item.item.value);
      used += utf8ByteLength(text) + 1;
      // Always keep one item, so a page is never empty while items remain.
      if (used > budgetBytes && texts.length > 0) {
        full = true;
        return;
      }
      texts.push(text);
      yield item;
    }
  };
  let page: Page<Positioned<T, P>>;
  try {
    page = await paginateSource(bounded, {
      codec,
      list,
      cursor: options.cursor,
      pageSize: options.pageSize,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.isPosition ? { isPosition: options.isPosition } : {}),
    });
  } catch (error) {
    // paginateSource checks the signal with throwIfAborted (an AbortError): report a cancellation
    // as one, not as an internal failure in the server log.
    if (options.signal?.aborted) throw new CancelledError();
    // paginateSource reports a bad cursor as JSON-RPC -32602, which a tool handler would turn into
    // an "internal error"; inside a tool result it is the caller's mistake, so say so plainly.
    if (error instanceof ProtocolError && error.message.includes(INVALID_CURSOR_MESSAGE))
      throw new UserError(INVALID_CURSOR_MESSAGE);
    throw error;
  }
  const items = page.page.map((positioned) => positioned.value);
  texts.length = items.length;
  const last = page.page[page.page.length - 1];
  // Cut by the budget, the stream looked finished to paginateSource: the cursor is made here.
  const nextCursor = page.nextCursor ?? (full && last ? codec.encode(list, last.position) : undefined);
  return { items, texts, ...(nextCursor ? { nextCursor } : {}) };
}
