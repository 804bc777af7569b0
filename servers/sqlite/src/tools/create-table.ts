/**
 * The official `create_table`: one CREATE TABLE statement. It is a schema change, so the user is
 * asked first (or the call carries `confirm: true` when the client cannot ask); schema subscribers
 * hear of the new table at once. Hidden in read-only mode.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool } from '../context.js';
import { isKeyword, tokenize } from '../sql/sql-tokens.js';
import { classifyWrite, runWrite, WriteResult } from './support/run-write.js';
import { Query } from './support/schemas.js';

/** True for `CREATE [TEMP | TEMPORARY] TABLE …`, read by tokens so comments cannot disguise it. */
function isCreateTable(text: string): boolean {
  const { tokens } = tokenize(text);
  const next = isKeyword(tokens[1], 'TEMP') || isKeyword(tokens[1], 'TEMPORARY') ? 2 : 1;
  return isKeyword(tokens[0], 'CREATE') && isKeyword(tokens[next], 'TABLE');
}

export const createTable = defineTool({
  name: 'create_table',
  title: 'Create a table',
  description:
    'Creates a table from one CREATE TABLE statement. The user is asked first; a client that cannot ask must ' +
    'pass confirm: true once the user agreed. Use write_query for other schema changes.',
  input: z.object({
    query: Query('One CREATE TABLE statement, e.g. CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)'),
    confirm: z
      .boolean()
      .optional()
      .describe('The user agreed to the new table; only when the client cannot ask'),
  }),
  output: WriteResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const statement = classifyWrite(call, args.query);
    if (!isCreateTable(statement.text)) {
      throw new UserError(
        'create_table runs only a CREATE TABLE statement; use write_query for anything else.',
      );
    }
    return runWrite(call, statement, { query: args.query, confirm: args.confirm });
  },
});
