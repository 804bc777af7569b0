/**
 * One page of a query's rows for a tool: the runner's limits filled in from the arguments and the
 * app's budget, progress and cancellation wired to the call, the cursor checked and minted, and the
 * text copy fenced as untrusted data (a row may hold "ignore previous instructions…").
 */

import type { SqliteCall } from '../../context.js';
import { fenceRows } from '../../sql/fence.js';
import {
  DEFAULT_MAX_ROWS,
  MAX_BYTES_LIMIT,
  MAX_ROWS_LIMIT,
  type ParamInput,
} from '../../sql/query-limits.js';
import type { QueryResult } from '../../sql/query-runner.js';
import { decodeQueryCursor, encodeQueryCursor, queryKey } from './query-cursor.js';

/** What to read. */
export interface PageRequest {
  /** The tool the cursor belongs to. */
  tool: string;
  query: string;
  params: ParamInput | undefined;
  cursor: string | undefined;
  /** Rows asked for; capped by the runner's limit and the app's result page size. */
  maxRows: number | undefined;
  /** Bytes the page may take; default: what the app's output budget leaves for a text copy. */
  maxBytes?: number;
  maxCellChars?: number;
}

/** A page, the cursor to the next one, and where it started. */
export interface RowPage {
  result: QueryResult;
  offset: number;
  nextCursor?: string;
}

/**
 * Bytes left for rows once `reserve` bytes of other text are counted, within the runner's bounds.
 * The page follows the app's output budget, the size of answer its operator allows: the rows are
 * measured as the text copy writes them, so a full page still fits that budget whole (cut, its
 * fence would lose the closing tag). The default row cap, not this, keeps ordinary pages small.
 */
export function rowBudget(call: SqliteCall, reserve: number): number {
  return Math.max(1024, Math.min(MAX_BYTES_LIMIT, call.app.outputLimitBytes - reserve));
}

/** Rows per page: what was asked, else the default, never above the runner's or the app's cap. */
export function rowCap(call: SqliteCall, asked: number | undefined): number {
  return Math.max(1, Math.min(asked ?? DEFAULT_MAX_ROWS, MAX_ROWS_LIMIT, call.app.resultPageSize));
}

/**
 * Runs one page of a read-only query. The page is cut at the row cap and at the byte budget,
 * whichever comes first; `nextCursor` is set when rows remain.
 */
export async function readPage(call: SqliteCall, request: PageRequest): Promise<RowPage> {
  const key = queryKey(request.tool, request.query, request.params);
  const offset = request.cursor ? decodeQueryCursor(call.app.cursors, request.tool, request.cursor, key) : 0;
  const result = await call.context.runner.run(request.query, {
    expect: 'read',
    params: request.params,
    offset,
    maxRows: rowCap(call, request.maxRows),
    maxBytes: request.maxBytes ?? rowBudget(call, 4096),
    ...(request.maxCellChars ? { maxCellChars: request.maxCellChars } : {}),
    signal: call.signal,
    onProgress: (rows) => call.progress.report(rows, { message: `${rows} rows read` }),
  });
  const page: RowPage = { result, offset };
  if (result.next)
    page.nextCursor = encodeQueryCursor(call.app.cursors, request.tool, key, result.next.offset);
  return page;
}

/**
 * The text copy of a page: a summary line, the fenced rows, and how to get the next page. Only
 * the rows are fenced; the lines around them are the server's own words.
 */
export function pageText(page: RowPage, tool: string): string {
  const { result, offset, nextCursor } = page;
  const count = result.rows.length;
  const first = offset + 1;
  const span = count === 0 ? 'No rows' : count === 1 ? `Row ${first}` : `Rows ${first}-${offset + count}`;
  const lines = [`${span} of the result.`, fenceRows(result).text];
  if (nextCursor) {
    lines.push(
      `[More rows follow: call ${tool} again with the same query and params and cursor "${nextCursor}".]`,
    );
  }
  return lines.join('\n');
}
