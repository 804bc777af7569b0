/**
 * The messages between the server and its query process (see query-runner.ts and query-child.ts).
 * Everything here is plain data: cells are rendered (no BigInt, no Buffer) and a page of rows is
 * written as text (row-text.ts) before it leaves the query process.
 */

import type { RowPageText } from './row-reader.js';

/** A value bound to a `?`, `?NNN`, `:name`, `@name` or `$name` parameter. */
export type BindValue = null | number | string;

/** Parameters: positional, or named (without the `:`/`@`/`$`). */
export type BindParams = readonly BindValue[] | Readonly<Record<string, BindValue>>;

/**
 * What a statement must be to run: `read` returns rows and changes nothing; `write` may change
 * things (write mode only); `explain` is an EXPLAIN built by the server, which returns rows and
 * runs nothing.
 */
export type Expectation = 'read' | 'write' | 'explain';

/** First message: which file to open, and how. */
export interface OpenMessage {
  type: 'open';
  path: string;
  write: boolean;
}

/** Run one statement and send back one page of its rows. */
export interface RunMessage {
  type: 'run';
  id: number;
  sql: string;
  params: BindParams;
  expect: Expectation;
  /** Rows to skip first (the pages already shown). */
  offset: number;
  maxRows: number;
  /** Bytes the page's text may take: the column line and the row lines, as UTF-8. */
  maxBytes: number;
  maxCellChars: number;
}

/** Server to query process. */
export type ParentMessage = OpenMessage | RunMessage;

/** A page of rows (see row-reader.ts), or what a write did. */
export interface ChildResult extends RowPageText {
  changes?: number;
  lastInsertRowid?: number | string;
}

/** Query process to server. */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'open-failed'; message: string }
  | { type: 'progress'; id: number; rows: number }
  /** A part of the page's rows, sent as soon as it is read (row-reader.ts); `done` has the rest. */
  | { type: 'rows'; id: number; rowsText: string; rowCount: number }
  | { type: 'done'; id: number; result: ChildResult }
  | { type: 'fail'; id: number; message: string; user: boolean; code?: string };
