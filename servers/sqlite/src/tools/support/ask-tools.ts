/**
 * What ask_database lends the client's model while it works out an answer: list_tables,
 * describe_table and read_query, each read-only whatever mode the server is in (read_query runs
 * with the `read` expectation, so the classifier and the query process both refuse a write), with
 * few rows and bytes per answer, and everything from the database fenced as untrusted data. Every
 * query the model runs is recorded, so the answer can show the SQL behind it.
 *
 * The tool loop re-runs from the top on every round, so these run again on replay: they are cheap
 * reads, bounded by the runner's time limit.
 */
import { isUserError } from '@mcpkit/core/errors';
import { type LoopTool, loopTool } from '@mcpkit/core/sampling';
import * as z from 'zod';
import type { SqliteCall } from '../../context.js';
import { describeSchema } from '../../sql/describe-table.js';
import { fenceRows } from '../../sql/fence.js';
import { listTables } from '../../sql/identifiers.js';
import { fenceJson } from './fence-json.js';
import { Params, paramsOf } from './schemas.js';

/** One query the model ran, and what came of it. */
export interface RanQuery {
  sql: string;
  params?: z.infer<typeof Params>;
  rowCount?: number;
  truncated?: boolean;
  error?: string;
}

/**
 * Bounds of one read_query inside the loop: enough to answer from, small enough for a prompt. Its
 * time is the runner's limit (`--time-limit`), as for every statement a client's request runs.
 */
const LOOP_ROWS = 50;
const LOOP_BYTES = 16 * 1024;
const LOOP_CELL_CHARS = 500;

/** Tables described in the first message at most, and its length in characters. */
const OVERVIEW_TABLES = 60;
const OVERVIEW_CHARS = 12_000;

/**
 * A short overview of the schema for the first message (tables and their columns), fenced: a
 * model without tools can still answer from it, one with tools knows where to start.
 */
export function schemaOverview(call: SqliteCall): string {
  const db = call.context.database.schema;
  const tables = listTables(db);
  const lines: string[] = [];
  let chars = 0;
  for (const table of tables.slice(0, OVERVIEW_TABLES)) {
    let columns: string;
    try {
      columns = describeSchema(db, table.name)
        .columns.map((c) => (c.type ? `${c.name} ${c.type}` : c.name))
        .join(', ');
    } catch {
      columns = '(columns cannot be read)';
    }
    const line = `${table.type} ${JSON.stringify(table.name)}: ${columns}`;
    chars += line.length + 1;
    if (chars > OVERVIEW_CHARS) break;
    lines.push(line);
  }
  if (lines.length < tables.length)
    lines.push(`… ${tables.length} tables and views in all (list_tables shows them).`);
  if (tables.length === 0) return 'The database has no tables.';
  return fenceRows({ columns: ['schema'], rows: lines.map((line) => [line]) }).text;
}

/** The three loop tools, bound to this call; each query the model runs is pushed onto `ran`. */
export function askTools(call: SqliteCall, ran: RanQuery[]): LoopTool[] {
  const { database, runner } = call.context;
  return [
    loopTool({
      name: 'list_tables',
      description: 'Lists the tables and views of the database.',
      input: z.object({}),
      run: () => {
        const tables = listTables(database.schema);
        if (tables.length === 0) return 'The database has no tables.';
        return fenceRows({ columns: ['name', 'type'], rows: tables.map((t) => [t.name, t.type]) }).text;
      },
    }),
    loopTool({
      name: 'describe_table',
      description: 'Shows the columns, indexes and foreign keys of one table or view.',
      input: z.object({ table_name: z.string().min(1).max(1024).describe('The table or view') }),
      run: ({ table_name }) => fenceJson(describeSchema(database.schema, table_name)),
    }),
    loopTool({
      name: 'read_query',
      description:
        'Runs one read-only SQL query (SELECT, WITH … SELECT) and returns at most 50 rows. Put values in params ' +
        'with ? placeholders. Aggregate in SQL rather than reading many rows.',
      input: z.object({
        query: z.string().min(1).max(100_000).describe('One SQL statement that only reads'),
        params: Params,
      }),
      run: async ({ query, params }) => {
        const bound = paramsOf(params);
        const record: RanQuery = params === undefined ? { sql: query } : { sql: query, params };
        ran.push(record);
        try {
          const page = await runner.run(query, {
            expect: 'read',
            params: bound,
            maxRows: LOOP_ROWS,
            maxBytes: LOOP_BYTES,
            maxCellChars: LOOP_CELL_CHARS,
            signal: call.signal,
          });
          record.rowCount = page.rows.length;
          record.truncated = page.truncated;
          const more = page.truncated ? ' (more rows exist: aggregate or add a LIMIT)' : '';
          return `${page.rows.length} rows${more}:\n${fenceRows(page).text}`;
        } catch (error) {
          record.error = isUserError(error) ? error.message : 'The query failed.';
          throw error;
        }
      },
    }),
  ];
}
