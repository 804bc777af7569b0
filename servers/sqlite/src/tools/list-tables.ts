/**
 * The official `list_tables`, with views too (marked as such) and SQLite's own `sqlite_…` tables
 * left out. Names are read from the schema connection, never by running SQL from the caller; they
 * are still the database's text, so the text copy is fenced like rows.
 */
import { paginateArray } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool } from '../context.js';
import { fenceRows } from '../sql/fence.js';
import { type TableRef, tableLines, listTables as tablesOf } from '../sql/identifiers.js';
import { everyOf, fields, isString, optional, withQuickCheck } from './support/quick-check.js';

/** A listing as the output schema below accepts it, checked without zod (see quick-check.ts). */
function isListing(value: unknown): boolean {
  const listing = fields(value);
  return (
    listing !== undefined &&
    optional(isString)(listing.nextCursor) &&
    everyOf(listing.tables, (entry) => {
      const table = fields(entry);
      return table !== undefined && isString(table.name) && (table.type === 'table' || table.type === 'view');
    })
  );
}

/** Names per page at most: a schema with thousands of tables still answers in bounded pages. */
const MAX_PAGE = 2_000;

export const listTables = defineTool({
  name: 'list_tables',
  title: 'List tables',
  description:
    'Lists the tables and views of the database by name (SQLite’s internal tables left out). Call describe_table ' +
    'for the columns of one, or search_schema to find a column by name.',
  input: z.object({
    cursor: z.string().optional().describe('The nextCursor of the previous page'),
  }),
  output: withQuickCheck(
    z.object({
      tables: z.array(z.object({ name: z.string(), type: z.enum(['table', 'view']) })),
      nextCursor: z.string().optional(),
    }),
    isListing,
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run(args, call) {
    const all = tablesOf(call.context.database.schema);
    const { page, nextCursor } = paginateArray(all, {
      codec: call.app.cursors,
      list: 'list_tables',
      cursor: args.cursor,
      pageSize: Math.min(call.app.resultPageSize, MAX_PAGE),
      keyOf: (table) => table.name,
    });
    const lines = [
      all.length === 0
        ? 'The database has no tables yet.'
        : `${all.length} tables and views; names as stored:`,
    ];
    if (page.length > 0) {
      // The lines of every table are kept with the schema; the page's are a slice of them.
      const start = all.indexOf(page[0] as TableRef);
      const rowsText = tableLines(call.context.database.schema)
        .slice(start, start + page.length)
        .join('\n');
      lines.push(
        fenceRows({ columns: ['name', 'type'], rows: page.map((t) => [t.name, t.type]), rowsText }).text,
      );
    }
    if (nextCursor) lines.push(`[More follow: call list_tables again with cursor "${nextCursor}".]`);
    return { text: lines.join('\n'), structured: { tables: page, ...(nextCursor ? { nextCursor } : {}) } };
  },
});
