/**
 * Cursors of the paged query tools (read_query, export_query). A cursor is signed by the app's
 * codec, so the row offset in it cannot be edited, and it carries a digest of the query text and
 * its parameters: a cursor is good only for the call that made it, repeated with the same query and
 * the same values. Paging re-runs the query and skips the rows already shown, so an ORDER BY keeps
 * the pages consistent while the data changes.
 */
import { createHash } from 'node:crypto';
import { UserError } from '@mcpkit/core/errors';
import type { CursorCodec, JsonValue } from '@mcpkit/core/pagination';
import type { ParamInput } from '../../sql/query-limits.js';

type Position = { k: string; o: number };

/** The first 16 hex digits of the SHA-256 of the tool, the query text and its parameters. */
export function queryKey(tool: string, query: string, params: ParamInput | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify([tool, query, params ?? null]))
    .digest('hex')
    .slice(0, 16);
}

/** A cursor for the page starting at row `offset` of the query `key` names. */
export function encodeQueryCursor(codec: CursorCodec, tool: string, key: string, offset: number): string {
  return codec.encode<Position>(tool, { k: key, o: offset });
}

/**
 * The row offset in `cursor`. A forged or edited cursor is the codec's protocol error (-32602); a
 * genuine one sent with another query or other parameters is a sentence saying what to do.
 */
export function decodeQueryCursor(codec: CursorCodec, tool: string, cursor: string, key: string): number {
  const position = codec.decode<Position>(tool, cursor, (value: JsonValue): value is Position => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return typeof value.k === 'string' && Number.isSafeInteger(value.o) && (value.o as number) > 0;
  });
  if (position.k !== key) {
    throw new UserError(
      `This cursor belongs to another query; repeat ${tool} with the exact query and params that returned it, or leave cursor out to start over.`,
    );
  }
  return position.o;
}
