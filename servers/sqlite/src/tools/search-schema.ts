/**
 * `search_schema`: the tables, views and columns whose names contain a word, without the model
 * having to describe every table. The word is matched in this process against names read from the
 * schema; it never reaches SQL.
 */
import * as z from 'zod';
import { defineTool } from '../context.js';
import { fenceRows } from '../sql/fence.js';
import { searchSchema as search } from '../sql/schema-search.js';

export const searchSchema = defineTool({
  name: 'search_schema',
  title: 'Search table and column names',
  description:
    'Finds tables, views and columns whose names contain the given word (case-insensitive), e.g. "customer" ' +
    'finds the customers table and every customer_id column. Use it before writing a query on an unfamiliar database.',
  input: z.object({
    term: z.string().min(1).max(200).describe('Part of a table or column name'),
    limit: z.number().int().min(1).max(1_000).optional().describe('Matches at most (default 200)'),
  }),
  output: z.object({
    matches: z.array(
      z.object({
        table: z.string(),
        type: z.enum(['table', 'view']),
        column: z.string().optional(),
        columnType: z.string().optional(),
      }),
    ),
    truncated: z.boolean().describe('More names matched than are shown; use a longer word'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run(args, call) {
    const found = search(call.context.database.schema, args.term, args.limit);
    const rows = found.matches.map((m) => [m.table, m.type, m.column ?? null, m.columnType ?? null]);
    const lines = [
      found.matches.length === 0
        ? 'No table or column name contains that word.'
        : `${found.matches.length} matching names:`,
    ];
    if (rows.length > 0)
      lines.push(fenceRows({ columns: ['table', 'type', 'column', 'columnType'], rows }).text);
    if (found.truncated) lines.push('[More names match: search for a longer word.]');
    return { text: lines.join('\n'), structured: found };
  },
});
