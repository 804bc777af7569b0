/**
 * `explain_query`: SQLite's query plan for a statement, without running it (EXPLAIN QUERY PLAN),
 * so the model can see whether an index is used before it runs something slow. A statement that
 * already starts with EXPLAIN is run as it is (the bytecode listing). In write mode a write can be
 * explained too: the plan is computed, the write never runs.
 */
import * as z from 'zod';
import { defineTool } from '../context.js';
import type { Cell } from '../sql/cells.js';
import { classifyStatement } from '../sql/classify.js';
import { fenceLines } from '../sql/fence.js';
import { pageText } from './support/row-page.js';
import { Params, paramsOf, Query, RowsShape } from './support/schemas.js';

/** Plan lines at most: a plan is a few lines; the bytecode listing of a big join is longer. */
const MAX_PLAN_ROWS = 2_000;

/** The plan as an indented tree, one step per line, from EXPLAIN QUERY PLAN's id/parent/detail rows. */
function planTree(rows: readonly Cell[][]): string[] {
  const depth = new Map<number, number>();
  return rows.map((row) => {
    const [id, parent, , detail] = row;
    const level = typeof parent === 'number' ? (depth.get(parent) ?? -1) + 1 : 0;
    if (typeof id === 'number') depth.set(id, level);
    return `${'  '.repeat(level)}${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
  });
}

export const explainQuery = defineTool({
  name: 'explain_query',
  title: 'Explain a query plan',
  description:
    'Shows how SQLite would run a statement (EXPLAIN QUERY PLAN) without running it: which tables are scanned, ' +
    'which indexes are used, where temporary sorting happens. Pass the same params the query takes.',
  input: z.object({
    query: Query('The statement to explain, e.g. SELECT * FROM orders WHERE customer_id = ?'),
    params: Params,
  }),
  output: z.object({
    ...RowsShape,
    plan: z.array(z.string()).optional().describe('The query plan as indented steps'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const { database, runner } = call.context;
    const statement = classifyStatement(args.query, { write: database.write });
    const sql = statement.explain ? statement.text : `EXPLAIN QUERY PLAN ${statement.text}`;
    const result = await runner.run(sql, {
      expect: 'read',
      params: paramsOf(args.params),
      maxRows: MAX_PLAN_ROWS,
      signal: call.signal,
    });
    const isPlan = result.columns.join(',') === 'id,parent,notused,detail';
    if (!isPlan) {
      const text = pageText({ result, offset: 0 }, 'explain_query');
      return { text, structured: { columns: result.columns, rows: result.rows } };
    }
    const plan = planTree(result.rows);
    return {
      text: `The query plan, one step per line:\n${fenceLines(plan).text}`,
      structured: { columns: result.columns, rows: result.rows, plan },
    };
  },
});
