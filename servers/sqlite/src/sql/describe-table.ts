/**
 * What describe_table answers: columns, indexes and foreign keys from the schema (read with the
 * table's stored name as a bound parameter of the pragma table-valued functions, never pasted into
 * SQL, and kept until the schema changes: schema-cache.ts), and the row count and a few sample rows.
 * Those go through the query runner, because counting or sampling a view runs arbitrary SQL stored
 * in the file and must be bounded in time like any query; only a small ordinary table, whose read
 * is bounded by the file's size, is counted by the server itself (table-peek.ts).
 */

import { isUserError } from '@mcpkit/core/errors';
import { CancelledError } from '@mcpkit/core/progress';
import type { Rows } from './cells.js';
import type { Connection } from './connect.js';
import { quoteIdentifier, resolveTable, type TableRef } from './identifiers.js';
import type { QueryResult, QueryRunner, RunOptions } from './query-runner.js';
import { bySchema, prepared } from './schema-cache.js';
import { peekTable } from './table-peek.js';

/** One column, as `pragma_table_xinfo` reports it. */
export interface ColumnInfo {
  name: string;
  /** The declared type, '' when none was declared. */
  type: string;
  notNull: boolean;
  /** The default as SQL text, or null. */
  defaultValue: string | null;
  /** Position in the primary key, 1-based; 0 when not part of it. */
  primaryKey: number;
  /** 0 normal; 1 hidden (virtual tables); 2 or 3 generated. */
  hidden: number;
}

/** One index. */
export interface IndexInfo {
  name: string;
  unique: boolean;
  /** 'c' CREATE INDEX, 'u' UNIQUE constraint, 'pk' PRIMARY KEY. */
  origin: string;
  partial: boolean;
  /** Indexed columns in order; an expression shows as null. */
  columns: (string | null)[];
}

/** One foreign key (several columns when composite). */
export interface ForeignKeyInfo {
  table: string;
  from: string[];
  /** Referenced columns; null means the referenced table's primary key. */
  to: (string | null)[];
  onUpdate: string;
  onDelete: string;
}

/** The schema part of a description: no statement runs for it. */
export interface TableSchema extends TableRef {
  columns: ColumnInfo[];
  indexes: IndexInfo[];
  foreignKeys: ForeignKeyInfo[];
}

/** A full description. */
export interface TableDescription extends TableSchema {
  /** Null when counting failed or ran past the time limit (a view can be slow): see `countError`. */
  rowCount: number | string | null;
  countError?: string;
  /** Set when the sample could not be read; `sample` is then empty. */
  sampleError?: string;
  sample: Rows & { truncated: boolean };
}

/** Sample rows shown unless asked otherwise. */
export const DEFAULT_SAMPLE_ROWS = 5;

/**
 * Bytes of the sample's rows at most: a glimpse, leaving most of an answer's budget to the schema
 * (whose JSON goes in the same text copy) however wide the rows are.
 */
export const SAMPLE_MAX_BYTES = 256 * 1024;

/**
 * The columns, indexes and foreign keys of table or view `name` (a {@link NotFound} when there is
 * none).
 *
 * @example
 * ```ts
 * describeSchema(db.schema, 'orders').columns.map((c) => c.name); // ['id', 'customer', 'total']
 * ```
 */
export function describeSchema(db: Connection, name: string): TableSchema {
  const table = resolveTable(db, name);
  return bySchema(db, `describe:${table.name}`, () => readSchema(db, table));
}

function readSchema(db: Connection, table: TableRef): TableSchema {
  const columns = (
    prepared(
      db,
      'SELECT name, type, "notnull" AS nn, dflt_value AS dflt, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid',
    ).all(table.name) as {
      name: string;
      type: string;
      nn: number;
      dflt: string | null;
      pk: number;
      hidden: number;
    }[]
  ).map((c) => ({
    name: c.name,
    type: c.type,
    notNull: c.nn === 1,
    defaultValue: c.dflt,
    primaryKey: c.pk,
    hidden: c.hidden,
  }));
  const indexRows = prepared(
    db,
    'SELECT name, "unique" AS u, origin, partial FROM pragma_index_list(?) ORDER BY seq',
  ).all(table.name) as { name: string; u: number; origin: string; partial: number }[];
  const indexColumns = prepared(db, 'SELECT name FROM pragma_index_info(?) ORDER BY seqno').pluck();
  const indexes = indexRows.map((index) => ({
    name: index.name,
    unique: index.u === 1,
    origin: index.origin,
    partial: index.partial === 1,
    columns: indexColumns.all(index.name) as (string | null)[],
  }));
  const keyRows = prepared(
    db,
    'SELECT id, "table" AS target, "from" AS source, "to" AS dest, on_update AS upd, on_delete AS del FROM pragma_foreign_key_list(?) ORDER BY id, seq',
  ).all(table.name) as {
    id: number;
    target: string;
    source: string;
    dest: string | null;
    upd: string;
    del: string;
  }[];
  const keys = new Map<number, ForeignKeyInfo>();
  for (const row of keyRows) {
    let key = keys.get(row.id);
    if (!key) {
      key = { table: row.target, from: [], to: [], onUpdate: row.upd, onDelete: row.del };
      keys.set(row.id, key);
    }
    key.from.push(row.source);
    key.to.push(row.dest);
  }
  return { ...table, columns, indexes, foreignKeys: [...keys.values()] };
}

/**
 * Runs `sql` and returns its page, or the sentence of a refusal or time limit (a cancellation and
 * internal failures still throw): a view that cannot be counted or sampled is still described.
 */
async function attempt(
  runner: QueryRunner,
  sql: string,
  options: RunOptions,
): Promise<{ page: QueryResult } | { error: string }> {
  try {
    return { page: await runner.run(sql, options) };
  } catch (error) {
    if (!isUserError(error) || error instanceof CancelledError) throw error;
    return { error: error.message };
  }
}

/**
 * The schema of `name` plus its row count and first rows: read by the server itself for a small
 * ordinary table (table-peek.ts), otherwise run by `runner` within its limits. Counting or
 * sampling a view may fail or hit the time limit; the sentence then goes in
 * `countError` / `sampleError` and the schema is still returned.
 *
 * @example
 * ```ts
 * const d = await describeTable(db.schema, runner, 'orders', { sampleRows: 3, signal: call.signal });
 * // d.columns, d.indexes, d.foreignKeys, d.rowCount, d.sample.rows
 * ```
 */
export async function describeTable(
  db: Connection,
  runner: QueryRunner,
  name: string,
  options: { sampleRows?: number; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<TableDescription> {
  const schema = describeSchema(db, name);
  const sampleRows = options.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  // A small ordinary table is counted and sampled here, without the two round trips.
  const peek = peekTable(db, schema, { maxRows: sampleRows, maxBytes: SAMPLE_MAX_BYTES });
  if (peek) return { ...schema, rowCount: peek.rowCount, sample: peek.sample };
  const quoted = quoteIdentifier(schema.name);
  const limits: RunOptions = { expect: 'read', signal: options.signal, timeoutMs: options.timeoutMs };
  const count = await attempt(runner, `SELECT count(*) FROM ${quoted}`, limits);
  const sample = await attempt(runner, `SELECT * FROM ${quoted}`, {
    ...limits,
    maxRows: sampleRows,
    maxBytes: SAMPLE_MAX_BYTES,
  });
  const cell = 'page' in count ? count.page.rows[0]?.[0] : undefined;
  const description: TableDescription = {
    ...schema,
    rowCount: typeof cell === 'number' || typeof cell === 'string' ? cell : null,
    sample:
      'page' in sample
        ? { columns: sample.page.columns, rows: sample.page.rows, truncated: sample.page.truncated }
        : { columns: schema.columns.map((c) => c.name), rows: [], truncated: false },
  };
  if ('error' in count) description.countError = count.error;
  if ('error' in sample) description.sampleError = sample.error;
  return description;
}
