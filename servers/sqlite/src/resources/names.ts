/**
 * Completion sources the resources and prompts share: table names, and the column names of a table
 * already chosen. Both come from the schema as it is at each request (kept only until it
 * changes), so a table created a moment ago is offered at once; core ranks what the user typed
 * against them.
 *
 * A completion value is what the client sends back as the argument, so it must be the exact name:
 * it is never escaped or cut. A name holding a control character (a newline, a bidi override) is
 * left out instead: shown raw in a picker it could pose as several entries or hide text, and shown
 * escaped it would name no table. Such a table is still reached by typing its name, through the
 * tools, and by its resource URI.
 */
import { isUserError } from '@mcpkit/core/errors';
import type { SqliteLookup } from '../context.js';
import { describeSchema } from '../sql/describe-table.js';
import { hasControls } from '../sql/display.js';
import { listTables } from '../sql/identifiers.js';

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
  try {
    // The columns describe_table reads, kept per schema version: completion asks on every keystroke.
    return describeSchema(lookup.context.database.schema, table)
      .columns.filter((column) => column.hidden !== 1 && !hasControls(column.name))
      .map((column) => column.name);
  } catch (error) {
    // A half-typed or unknown table is not a failure of completion: there is just nothing to offer.
    if (isUserError(error)) return [];
    throw error;
  }
}
