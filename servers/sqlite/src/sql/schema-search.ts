/**
 * search_schema: tables, views and columns whose names contain a term, case-insensitively. The
 * match is done here on names read from the schema, not with LIKE, so `%` and `_` in the term are
 * plain characters and nothing the user typed reaches SQL.
 */

import { UserError } from '@mcpkit/core/errors';
import type { Connection } from './connect.js';
import { listTables } from './identifiers.js';

/** A table or view that matched by name, or one of its columns that did. */
export interface SchemaMatch {
  table: string;
  type: 'table' | 'view';
  /** Set for a column match. */
  column?: string;
  /** The column's declared type ('' when none). */
  columnType?: string;
}

/** Matches shown unless asked otherwise. */
export const DEFAULT_SCHEMA_MATCHES = 200;

/**
 * Names containing `term` (case-insensitive), tables before their columns, in name order.
 *
 * @example
 * ```ts
 * searchSchema(db.schema, 'cust').matches;
 * // [{ table: 'customers', type: 'table' }, { table: 'orders', type: 'table', column: 'customer_id', columnType: 'INTEGER' }]
 * ```
 */
export function searchSchema(
  db: Connection,
  term: string,
  limit = DEFAULT_SCHEMA_MATCHES,
): { matches: SchemaMatch[]; truncated: boolean } {
  const needle = term.trim().toLowerCase();
  if (needle === '') throw new UserError('Give a word to look for in table and column names.');
  if (needle.length > 200) throw new UserError('Search for at most 200 characters.');
  const columnsOf = db.prepare('SELECT name, type FROM pragma_table_xinfo(?) ORDER BY cid');
  const matches: SchemaMatch[] = [];
  for (const table of listTables(db)) {
    if (table.name.toLowerCase().includes(needle)) matches.push({ table: table.name, type: table.type });
    let columns: { name: string; type: string }[];
    try {
      columns = columnsOf.all(table.name) as { name: string; type: string }[];
    } catch {
      // A view whose definition no longer compiles (its table was dropped) has no columns to show.
      continue;
    }
    for (const column of columns) {
      if (column.name.toLowerCase().includes(needle)) {
        matches.push({ table: table.name, type: table.type, column: column.name, columnType: column.type });
      }
    }
    if (matches.length > limit) break;
  }
  return { matches: matches.slice(0, limit), truncated: matches.length > limit };
}
