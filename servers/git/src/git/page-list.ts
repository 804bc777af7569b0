/**
 * One page of a listing tool (branches, tags, stash entries): a repository can hold tens of
 * thousands of refs, so a listing returns a bounded page and an opaque cursor to the next, with
 * the same text line telling the model how to go on.
 */

import { paginateArray } from '@mcpkit/core/pagination';
import type { AppView } from '@mcpkit/core/server';

/** At most this many entries per page, whatever the app's page size: each is a text line and a structured item. */
const MAX_PAGE = 500;

/** A page of `items` and, when more follow, the cursor and the line that says how to get them. */
export function pageOf<T>(
  items: readonly T[],
  options: { app: AppView<unknown>; tool: string; cursor: string | undefined; keyOf: (item: T) => string },
): { page: T[]; nextCursor?: string; more?: string } {
  const { page, nextCursor } = paginateArray(items, {
    codec: options.app.cursors,
    list: options.tool,
    cursor: options.cursor,
    pageSize: Math.min(options.app.resultPageSize, MAX_PAGE),
    keyOf: options.keyOf,
  });
  if (!nextCursor) return { page };
  return {
    page,
    nextCursor,
    more: `${items.length} in all, more follow: call ${options.tool} again with cursor "${nextCursor}".`,
  };
}
