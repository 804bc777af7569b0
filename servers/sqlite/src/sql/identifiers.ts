/**
 * Table and column names. A name from the user is never put into SQL as given: it is looked up in
 * `sqlite_schema` or `pragma_table_xinfo(?)` with the name as a bound value, and the stored
 * spelling that comes back is quoted with `"` doubled. Values are always bound, never quoted here.
 */

import { NotFound, UserError } from '@mcpkit/core/errors';
import type { Connection } from './connect.js';
import { shownName } from './display.js';
import { rowLine } from './row-text.js';
import { bySchema, prepared } from './schema-cache.js';

/** A table or view of the main database, under its stored name. */
export interface TableRef {
  name: string;
  type: 'table' | 'view';
}

/** Longest name looked up, in characters: no real schema needs more. */
const MAX_NAME_CHARS = 1024;

/**
 * `name` as an SQL identifier: in double quotes, each `"` doubled. Only ever applied to names read
 * back from the schema.
 *
 * @example
 * ```ts
 * quoteIdentifier('odd"name'); // '"odd""name"'
 * ```
 */
export function quoteIdentifier(name: string): string {
  if (name.includes('\0')) throw new UserError('A name cannot contain a NUL character.');
  return `"${name.replaceAll('"', '""')}"`;
}

function rowType(type: unknown): 'table' | 'view' {
  return type === 'view' ? 'view' : 'table';
}

/**
 * Tables and views of the main database, by name, without SQLite's own `sqlite_…` tables.
 *
 * @example
 * ```ts
 * listTables(db.schema); // [{ name: 'orders', type: 'table' }, { name: 'totals', type: 'view' }]
 * ```
 */
export function listTables(db: Connection): readonly TableRef[] {
  return bySchema(db, 'tables', () => {
    const rows = prepared(
      db,
      "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    ).all() as { name: string; type: string }[];
    return rows.map((row) => ({ name: row.name, type: rowType(row.type) }));
  });
}

/**
 * Each table of {@link listTables} as a line of the fenced text copy (row-text.ts), in the same
 * order: written once per schema version, not on every call.
 */
export function tableLines(db: Connection): readonly string[] {
  return bySchema(db, 'table-lines', () => listTables(db).map((table) => rowLine([table.name, table.type])));
}

/**
 * The table or view called `name` (ASCII case-insensitively, as SQLite matches names), or a
 * {@link NotFound} naming it.
 *
 * @example
 * ```ts
 * quoteIdentifier(resolveTable(db.schema, 'ORDERS').name); // '"orders"'
 * ```
 */
export function resolveTable(db: Connection, name: string): TableRef {
  if (name.length === 0 || name.length > MAX_NAME_CHARS) {
    throw new UserError('Give a table name of 1 to 1024 characters; list_tables shows them.');
  }
  const ref = bySchema(db, `table:${name}`, () => {
    const row = prepared(
      db,
      "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
    ).get(name) as { name: string; type: string } | undefined;
    return row ? { name: row.name, type: rowType(row.type) } : undefined;
  });
  if (!ref) throw new NotFound(`There is no table ${shownName(name)}; list_tables shows them.`);
  return ref;
}

/**
 * The stored name of column `column` of `table` (hidden and generated columns included), or a
 * {@link NotFound} naming it.
 */
export function resolveColumn(db: Connection, table: TableRef, column: string): string {
  const row = prepared(db, 'SELECT name FROM pragma_table_xinfo(?) WHERE name = ? COLLATE NOCASE').get(
    table.name,
    column,
  ) as { name: string } | undefined;
  if (!row) {
    throw new NotFound(
      `Table ${shownName(table.name)} has no column ${shownName(column)}; describe_table lists them.`,
    );
  }
  return row.name;
}
