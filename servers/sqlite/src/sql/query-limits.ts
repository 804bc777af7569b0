/**
 * The bounds on one statement's run: rows per page, bytes per page, characters per cell and time.
 * Every run has all four, so no statement can answer with an unbounded result or run forever
 * (`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT * FROM c` is cut at the row
 * cap, and its `count(*)` form at the time limit).
 */

import { UserError } from '@mcpkit/core/errors';
import type { BindParams, BindValue } from './query-protocol.js';

/** Rows in one page unless asked otherwise. */
export const DEFAULT_MAX_ROWS = 500;
/** Most rows a caller may ask for in one page. */
export const MAX_ROWS_LIMIT = 10_000;
/**
 * Bytes of one page's text (the column line and one JSON line per row, as UTF-8) unless asked
 * otherwise: core's default output budget. A tool passes what its app's budget leaves instead.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/** Most bytes a caller may ask for in one page. */
export const MAX_BYTES_LIMIT = 16 * 1024 * 1024;
/** Characters of a TEXT cell shown before it is cut. */
export const DEFAULT_MAX_CELL_CHARS = 4_000;
/** Time one statement may run unless the operator sets another limit (`--time-limit`). */
export const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * Longest time limit, in seconds, the operator may set. Statements take turns in the one query
 * process, so while one runs every other call of every client waits behind it, and a write holds
 * the database's write lock throughout: work that needs more than an hour is a batch job to run
 * outside the server, not a question asked through a host.
 */
export const MAX_TIME_LIMIT_S = 3_600;
/** Longest time limit a run may have. */
export const MAX_TIMEOUT_MS = MAX_TIME_LIMIT_S * 1000;

/** The limits of one run, all set. */
export interface RunLimits {
  offset: number;
  maxRows: number;
  maxBytes: number;
  maxCellChars: number;
  timeoutMs: number;
}

/** A value as a caller may give it: booleans are bound as 1 and 0. */
export type ParamValue = BindValue | boolean;

/** Parameters as a caller may give them. */
export type ParamInput = readonly ParamValue[] | Readonly<Record<string, ParamValue>>;

function whole(value: number | undefined, fallback: number, min: number, max: number, what: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UserError(`The ${what} must be a whole number from ${min} to ${max}.`);
  }
  return n;
}

/**
 * Fills in and checks limits. The offset usually comes back from a cursor, so a bad one is the
 * user's mistake and gets a sentence.
 */
export function runLimits(given: Partial<RunLimits>): RunLimits {
  return {
    offset: whole(given.offset, 0, 0, Number.MAX_SAFE_INTEGER, 'row offset'),
    maxRows: whole(given.maxRows, DEFAULT_MAX_ROWS, 1, MAX_ROWS_LIMIT, 'row limit'),
    maxBytes: whole(given.maxBytes, DEFAULT_MAX_BYTES, 1024, MAX_BYTES_LIMIT, 'byte limit'),
    maxCellChars: whole(given.maxCellChars, DEFAULT_MAX_CELL_CHARS, 16, 1_000_000, 'cell length limit'),
    timeoutMs: whole(given.timeoutMs, DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS, 'time limit'),
  };
}

function bindValue(value: ParamValue): BindValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new UserError('A parameter must be a finite number, a string, a boolean or null.');
  }
  if (value !== null && typeof value !== 'number' && typeof value !== 'string') {
    throw new UserError('A parameter must be a finite number, a string, a boolean or null.');
  }
  return value;
}

/** Parameters as the query process binds them. Values are always bound, never written into SQL. */
export function bindParams(params: ParamInput | undefined): BindParams {
  if (params === undefined) return [];
  if (Array.isArray(params)) return params.map(bindValue);
  const entries = Object.entries(params as Readonly<Record<string, ParamValue>>);
  return entries.length === 0
    ? []
    : Object.fromEntries(entries.map(([key, value]) => [key, bindValue(value)]));
}
