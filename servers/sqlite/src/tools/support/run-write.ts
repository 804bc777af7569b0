/**
 * How write_query and create_table change the database: classify the statement (nothing is
 * prepared yet), ask the user before DDL, DROP, or an UPDATE/DELETE without WHERE, run it in the
 * query process with the answer as `confirmed`, then tell subscribers what changed.
 *
 * The question comes before the statement runs, and core re-runs the tool from the top once the
 * answer is in, so nothing here acts before every question has been answered.
 */
import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { announceChange, type SqliteCall } from '../../context.js';
import { type ClassifiedStatement, classifyStatement } from '../../sql/classify.js';
import { fenceRows } from '../../sql/fence.js';
import type { ParamInput } from '../../sql/query-limits.js';
import type { QueryResult } from '../../sql/query-runner.js';
import { rowBudget } from './row-page.js';
import { RowsShape } from './schemas.js';

/** What a write tool returns as structured content. */
export const WriteResult = z.object({
  changed: z.boolean().describe('False when nothing ran (the user declined)'),
  kind: z.enum(['write', 'ddl', 'destructive']).describe('How the statement counts'),
  verb: z.string().describe('The statement’s leading keyword'),
  changes: z.number().optional().describe('Rows inserted, updated or deleted'),
  lastInsertRowid: z.union([z.number(), z.string()]).optional(),
  ...RowsShape,
  truncated: z
    .boolean()
    .optional()
    .describe(
      'RETURNING gave more rows than one answer holds, so only the first are in rows; the change itself is complete',
    ),
});

type WriteOutput = z.infer<typeof WriteResult>;

/** Longest SQL shown in a confirmation question. */
const MAX_SHOWN_SQL = 2_000;

/** What the statement does, for the question: said plainly, since the user decides on it. */
function effect(statement: ClassifiedStatement): string {
  if (statement.kind === 'ddl') return 'changes the schema';
  if (statement.verb === 'DROP') return 'drops part of the schema and everything stored in it';
  if (statement.verb === 'ALTER') return 'drops a column and the values in it';
  return 'changes or deletes every row of a table, since it has no WHERE clause';
}

/** True when the statement changes the schema rather than only rows. */
function changesSchema(statement: ClassifiedStatement): boolean {
  return statement.kind === 'ddl' || statement.verb === 'DROP' || statement.verb === 'ALTER';
}

/** Classifies `query` as a write; a statement that only reads belongs to read_query. */
export function classifyWrite(call: SqliteCall, query: string): ClassifiedStatement {
  const statement = classifyStatement(query, { write: call.context.database.write });
  if (statement.kind === 'read') {
    throw new UserError('This statement only reads; run it with read_query instead.');
  }
  return statement;
}

/**
 * Runs a classified write, asking first when it needs consent. Declined: nothing runs, and the
 * answer says so.
 */
export async function runWrite(
  call: SqliteCall,
  statement: ClassifiedStatement,
  options: { query: string; params?: ParamInput | undefined; confirm?: boolean | undefined },
): Promise<{ text: string; structured: WriteOutput }> {
  const { kind, verb } = statement;
  if (kind === 'read') throw new UserError('This statement only reads; run it with read_query instead.');
  const needsConsent = kind === 'ddl' || kind === 'destructive';
  if (needsConsent) {
    if (!call.flow.abilities.elicitForm && options.confirm !== true) {
      throw new UserError(
        `This ${verb} statement ${effect(statement)}, so it runs only with the user's consent: this client cannot ask, so call again with "confirm": true once the user has agreed.`,
      );
    }
    const sql =
      statement.text.length > MAX_SHOWN_SQL ? `${statement.text.slice(0, MAX_SHOWN_SQL)}…` : statement.text;
    const agreed = confirm(call.flow, {
      message: `Run this ${verb} statement? It ${effect(statement)}.\n\n${sql}`,
      explicit: options.confirm,
    });
    if (!agreed) {
      return {
        text: `Nothing was changed: the user declined the ${verb} statement.`,
        structured: { changed: false, kind, verb, columns: [], rows: [] },
      };
    }
  }
  const result = await call.context.runner.run(options.query, {
    expect: 'write',
    params: options.params,
    confirmed: needsConsent,
    // RETURNING rows go in the text copy: the page must leave room for the lines around them.
    maxBytes: rowBudget(call, 4096),
    signal: call.signal,
  });
  announceChange(call.context, changesSchema(statement) ? 'schema' : 'data');
  const structured: WriteOutput = { changed: true, kind, verb, columns: result.columns, rows: result.rows };
  if (result.changes !== undefined) structured.changes = result.changes;
  if (result.lastInsertRowid !== undefined && result.changes)
    structured.lastInsertRowid = result.lastInsertRowid;
  if (result.truncated) structured.truncated = true;
  const lines = [
    changesSchema(statement)
      ? `Done: the ${verb} statement changed the schema.`
      : `Done: ${result.changes ?? result.rows.length} row(s) changed by the ${verb} statement.`,
  ];
  if (result.columns.length > 0) lines.push(...returnedRows(result));
  return { text: lines.join('\n'), structured };
}

/**
 * The RETURNING rows for the text copy. A write cannot be paged (a second page would run it
 * again), so rows past what one answer holds are not kept: the text says how many were left out
 * and warns against running the statement again to see them. RETURNING gives one row per row
 * the statement itself changed, so their number is the change count.
 */
function returnedRows(result: QueryResult): string[] {
  const shown = result.rows.length;
  if (!result.truncated) return ['Rows it returned:', fenceRows(result).text];
  const total = result.changes !== undefined && result.changes > shown ? result.changes : undefined;
  return [
    total === undefined
      ? `Rows it returned, the first ${shown}:`
      : `Rows it returned, the first ${shown} of ${total}:`,
    fenceRows(result).text,
    `[${total === undefined ? 'The other returned rows' : `The other ${total - shown} returned rows`} are not shown: ` +
      'more rows came back than one answer holds, and a change cannot be paged. The change is complete; do not ' +
      'run it again to see them, read the changed rows with read_query instead.]',
  ];
}
