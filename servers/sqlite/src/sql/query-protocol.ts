/**
 * The messages between the server and its query process (see query-runner.ts and query-child.ts).
 * They travel as JSON over the IPC channel, so everything here is plain data: cells are already
 * rendered (no BigInt, no Buffer) before they leave the query process.
 */

import type { Rows } from './cells.js';

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
  maxBytes: number;
  maxCellChars: number;
}

/** Server to query process. */
export type ParentMessage = OpenMessage | RunMessage;

/** A page of rows, or what a write did. */
export interface ChildResult extends Rows {
  /** More rows were there than the page holds. */
  truncated: boolean;
  /** Rows read (skipped ones included) up to the cut. */
  rowsRead: number;
  changes?: number;
  lastInsertRowid?: number | string;
}

/** Query process to server. */
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'open-failed'; message: string }
  | { type: 'progress'; id: number; rows: number }
  | { type: 'done'; id: number; result: ChildResult }
  | { type: 'fail'; id: number; message: string; user: boolean; code?: string };
