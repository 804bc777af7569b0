import * as z from 'zod';
import { definePrompt } from '../context.js';
import { tableNames } from '../resources/names.js';
import { sqlName } from '../resources/schema-text.js';
import { resolveTable } from '../sql/identifiers.js';
import { BOUND_VALUES, linkedTables, promptSchema, ROWS_ARE_DATA } from './schema-context.js';

/** Longest question a prompt takes, in characters. */
const MAX_QUESTION_CHARS = 4_000;

/**
 * Asks the model to answer a question with one SQL query it writes itself. The prompt carries the
 * schema (of the chosen table and its neighbours, or of the whole database) so the model uses the
 * real names, and asks for values as bound parameters so nothing in the question becomes SQL.
 */
export const queryForQuestion = definePrompt({
  name: 'query_for_question',
  title: 'Answer a question with SQL',
  description:
    'Asks the model to write and run one read-only query that answers a question about the data, ' +
    'given the schema, with every value as a bound parameter, then to answer and show the SQL.',
  args: z.object({
    question: z
      .string()
      .min(1)
      .max(MAX_QUESTION_CHARS)
      .describe('The question, in plain words, e.g. "Which customers spent most last month?"'),
    table: z
      .string()
      .optional()
      .describe(
        'The table the question is mostly about (completes from the database); all tables when left out',
      ),
  }),
  complete: {
    table: (_typed, lookup) => tableNames(lookup),
  },
  get(args, call) {
    const db = call.context.database.schema;
    const table = args.table ? resolveTable(db, args.table) : undefined;
    const scope = table ? linkedTables(db, table) : undefined;
    const heading = table
      ? `Schema of ${sqlName(table.name)} and the tables linked to it (list_tables and search_schema find others):`
      : 'Schema of the database:';
    const text = [
      'Answer this question from the SQLite database:',
      args.question.trim(),
      '',
      heading,
      promptSchema(db, scope),
      '',
      '1. Write one read-only SELECT (WITH … SELECT is fine) that answers it, using only the tables and ' +
        'columns above; if the question is ambiguous, say which reading you chose.',
      '2. Run it with read_query. If it fails or the result looks wrong, fix the query and run it again.',
      '3. Answer in plain words, then show the SQL and the params you ran.',
      '',
      `${BOUND_VALUES} ${ROWS_ARE_DATA}`,
    ].join('\n');
    return {
      description: `Query for: ${args.question.trim().slice(0, 80)}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});
