/**
 * Cursors of the paged query tools (read_query, export_query): core's argument-bound cursors, bound
 * to the tool, the query text and its parameters, carrying the row offset of the next page. Paging
 * re-runs the query and skips the rows already shown, so an ORDER BY keeps the pages consistent
 * while the data changes.
 */
import {
  argumentsKey,
  type CursorCodec,
  decodeBoundCursor,
  encodeBoundCursor,
} from '@mcpkit/core/pagination';
import type { ParamInput } from '../../sql/query-limits.js';

/** The key of one query: the tool, the query text and its parameters. */
export function queryKey(tool: string, query: string, params: ParamInput | undefined): string {
  return argumentsKey(tool, query, params ?? null);
}

/** A cursor for the page starting at row `offset` of the query `key` names. */
export function encodeQueryCursor(codec: CursorCodec, tool: string, key: string, offset: number): string {
  return encodeBoundCursor(codec, tool, key, { o: offset });
}

/**
 * The row offset in `cursor`. A forged or edited cursor is the codec's protocol error (-32602); a
 * genuine one sent with another query or other parameters is a sentence saying what to do.
 */
export function decodeQueryCursor(codec: CursorCodec, tool: string, cursor: string, key: string): number {
  const { o } = decodeBoundCursor<{ o: number }>(
    codec,
    tool,
    cursor,
    key,
    (value) => Number.isSafeInteger(value.o) && (value.o as number) > 0,
    `This cursor belongs to another query; repeat ${tool} with the exact query and params that returned it, or leave cursor out to start over.`,
  );
  return o;
}
