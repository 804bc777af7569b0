/**
 * Completion sources the resources and prompts share: table names, and the column names of a table
 * already chosen. Both are read from the schema on every request, so a table created a moment ago
 * is offered at once; core ranks what the user typed against them.
 *
 * A completion value is what the client sends back as the argument, so it must be the exact name:
 * it is never escaped or cut. A name holding a control character (a newline, a bidi override) is
 * left out instead: shown raw in a picker it could pose as several entries or hide text, and shown
 * escaped it would name no table. Such a table is still reached by typing its name, through the
 * tools, and by its resource URI.
 */
import { isUserError } from '@mcpkit/core/errors';
import type { SqliteLookup } from '../context.js';
import { hasControls } from '../sql/display.js';
import { listTables, resolveTable } from '../sql/identifiers.js';

/** Every table and view name that can be offered as it is. */
export function tableNames(lookup: SqliteLookup): string[] {
  return listTables(lookup.context.database.schema)
    .map((t) => t.name)
    .filter((name) => !hasControls(name));
}

/**
 * The columns of `table` (as the user spelt it; any case), or none while no table, or no such
 * table, is chosen.
 */
export function columnNames(lookup: SqliteLookup, table: string | undefined): string[] {
  if (!table) return [];
  const db = lookup.context.database.schema;
  try {
    const ref = resolveTable(db, table);
    const names = db
      .prepare('SELECT name FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid')
      .pluck()
      .all(ref.name) as string[];
    return names.filter((name) => !hasControls(name));
  } catch (error) {
    // A half-typed or unknown table is not a failure of completion: there is just nothing to offer.
    if (isUserError(error)) return [];
    throw error;
  }
}
