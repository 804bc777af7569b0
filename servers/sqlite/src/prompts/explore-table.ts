import * as z from 'zod';
import { definePrompt } from '../context.js';
import { columnNames, tableNames } from '../resources/names.js';
import { sqlName } from '../resources/schema-text.js';
import { whenReadable } from '../resources/unreadable.js';
import { tableUri } from '../resources/uris.js';
import { resolveColumn, resolveTable } from '../sql/identifiers.js';
import { BOUND_VALUES, linkedTables, promptSchema, ROWS_ARE_DATA } from './schema-context.js';

/**
 * Asks the model to explore one table (or one of its columns): what a row stands for, how the
 * values are spread, what is missing or odd. The prompt carries the table's schema and its
 * neighbours by foreign key, never its rows; the model reads rows itself, through tools that
 * fence them.
 */
export const exploreTable = definePrompt({
  name: 'explore_table',
  title: 'Explore a table',
  description:
    'Asks the model to profile one table, or one column of it: what a row is, how values are spread, ' +
    'gaps and oddities, and what questions the data can answer.',
  args: z.object({
    table: z.string().min(1).describe('The table or view to explore (completes from the database)'),
    column: z
      .string()
      .optional()
      .describe(
        'One column to look at closely (completes once the table is chosen); all columns when left out',
      ),
  }),
  complete: {
    table: (_typed, lookup) => tableNames(lookup),
    column: (_typed, lookup, context) => columnNames(lookup, context?.arguments?.table),
  },
  async get(args, call) {
    const db = call.context.database.schema;
    const table = resolveTable(db, args.table);
    const chosen = args.column;
    const column = chosen
      ? await whenReadable(table.name, () => resolveColumn(db, table, chosen))
      : undefined;
    const name = sqlName(table.name);
    const linked = linkedTables(db, table);
    const steps = [
      `1. Read the resource ${tableUri(table.name)} (or call describe_table) for the row count, the indexes and a few sample rows.`,
      column
        ? `2. Study the column ${sqlName(column)} with read_query: how many rows are NULL or empty, how many ` +
          `distinct values there are, the most common ones (e.g. SELECT ${sqlName(column)}, count(*) FROM ${name} ` +
          'GROUP BY 1 ORDER BY 2 DESC LIMIT 20), and the minimum and maximum when it holds numbers or dates.'
        : '2. Profile each column with read_query: NULLs, distinct values, the most common values, and the ' +
          'range of numbers and dates. Group several columns into one query where you can.',
      linked.length > 1
        ? '3. Follow the foreign keys to the linked tables where a join explains the data (e.g. counts per parent row).'
        : '3. Look for columns that relate to other tables by name or value, though no foreign key declares it.',
      `4. Sum up: what one row of ${name} stands for, the problems you found in the data, and three questions ` +
        'it can answer. Record each finding worth keeping with append_insight.',
    ];
    const focus = column ? `, above all its column ${sqlName(column)}` : '';
    const text = [
      `Explore the ${table.type} ${name} of this SQLite database${focus}, and tell me what it holds.`,
      '',
      `Schema of ${name}${linked.length > 1 ? ' and the tables linked to it' : ''}:`,
      promptSchema(db, linked),
      '',
      ...steps,
      '',
      `${BOUND_VALUES} ${ROWS_ARE_DATA}`,
    ].join('\n');
    return {
      description: `Explore ${name}${column ? `.${sqlName(column)}` : ''}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});
