/**
 * The official `write_query`: INSERT, UPDATE, DELETE (and, with consent, DDL) on a database the
 * operator opened with --write. One statement per call, values bound from `params`. A statement that
 * changes the schema, drops something, or updates/deletes every row asks the user first (or needs
 * `confirm: true` from a client that cannot ask). Hidden in read-only mode, where the engine would
 * refuse the write anyway.
 */
import * as z from 'zod';
import { defineTool } from '../context.js';
import { classifyWrite, runWrite, WriteResult } from './support/run-write.js';
import { Params, paramsOf, Query } from './support/schemas.js';

export const writeQuery = defineTool({
  name: 'write_query',
  title: 'Change data',
  description:
    'Runs one INSERT, UPDATE, DELETE or REPLACE (RETURNING allowed) with values bound from params, and says how ' +
    'many rows changed. Schema changes, DROP, and UPDATE or DELETE without WHERE ask the user first; a client ' +
    'that cannot ask must pass confirm: true once the user agreed. For queries use read_query.',
  input: z.object({
    query: Query('One SQL statement that changes data, e.g. UPDATE orders SET status = ? WHERE id = ?'),
    params: Params,
    confirm: z
      .boolean()
      .optional()
      .describe(
        'The user agreed to a schema change or a wholesale update/delete; only when the client cannot ask',
      ),
  }),
  output: WriteResult,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const statement = classifyWrite(call, args.query);
    return runWrite(call, statement, {
      query: args.query,
      params: paramsOf(args.params),
      confirm: args.confirm,
    });
  },
});
