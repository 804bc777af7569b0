import * as z from 'zod';
import { definePrompt } from '../context.js';
import { tableNames } from '../resources/names.js';
import { INSIGHTS_URI, SCHEMA_URI } from '../resources/uris.js';
import { BOUND_VALUES, promptSchema, ROWS_ARE_DATA } from './schema-context.js';

/** Longest topic, in characters. */
const MAX_TOPIC_CHARS = 200;

/** Topics offered when nothing is typed yet; any topic works. */
const SAMPLE_TOPICS = [
  'retail sales',
  'support tickets',
  'library loans',
  'fleet maintenance',
  'clinic visits',
];

/**
 * `mcp-demo`, the name and argument the original Python server's demo prompt had: a guided tour of
 * what this server can do, around a topic the user picks. With writes allowed the model builds a
 * small database on the topic first; read-only, it tours the data that is there, since it could
 * not create anything.
 */
export const mcpDemo = definePrompt({
  name: 'mcp-demo',
  title: 'Guided demo',
  description:
    'A guided tour of this SQLite server around a topic: build (with --write) or explore data, ' +
    'ask questions of it with SQL, and collect insights in the memo.',
  args: z.object({
    topic: z
      .string()
      .min(1)
      .max(MAX_TOPIC_CHARS)
      .describe('What the demo is about, e.g. "retail sales"; read-only, the table names are good topics'),
  }),
  complete: {
    // Read-only, the demo can only tour what exists, so the tables are the best topics.
    topic: (_typed, lookup) =>
      lookup.app.readOnly ? [...tableNames(lookup), ...SAMPLE_TOPICS] : SAMPLE_TOPICS,
  },
  get(args, call) {
    const topic = args.topic.trim();
    const db = call.context.database.schema;
    const build = call.app.readOnly
      ? [
          'This server is read-only, so the demo tours the data that is already there. Its schema:',
          promptSchema(db),
          '',
          `1. Pick the tables that fit "${topic}" best (or the richest ones, if none does) and say why.`,
          '2. For each, read its sqlite://table/… resource or call describe_table, and say what one row stands for.',
        ]
      : [
          `1. Design two or three related tables for "${topic}" with foreign keys between them, and create ` +
            'them with create_table (the user is asked to confirm a schema change).',
          '2. Fill them with 20 to 50 realistic rows each using write_query, one INSERT per call with the ' +
            'values in params. Current schema, which the new tables must not clash with:',
          promptSchema(db),
        ];
    const text = [
      `Give me a short, hands-on demo of this SQLite server, built around the topic "${topic}". ` +
        'Explain each step in a sentence before you take it, as if to a colleague seeing it for the first time.',
      '',
      ...build,
      '3. Ask three questions a business user would ask about this data and answer each with one read_query; ' +
        'show the SQL, then the answer.',
      '4. After each answer, record what you learnt with append_insight.',
      `5. Finish by reading ${INSIGHTS_URI} and summing up the findings, and mention that ${SCHEMA_URI} ` +
        'and the table resources can be subscribed to for changes.',
      '',
      `${BOUND_VALUES} ${ROWS_ARE_DATA}`,
    ].join('\n');
    return {
      description: `A demo of the SQLite server about ${topic.slice(0, 80)}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});
