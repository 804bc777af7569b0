/**
 * The official `describe_table(table_name)`, without the f-string into PRAGMA that made the
 * original injectable: the name is looked up in `sqlite_schema` as a bound value and only the
 * stored spelling, quoted, reaches SQL. Besides the columns it shows indexes, foreign keys, the row
 * count and a few sample rows (those two are read by the server itself only where that is bounded,
 * a small ordinary table; otherwise in the query process, bounded in time like any query).
 */
import * as z from 'zod';
import { defineTool } from '../context.js';
import { whenReadable } from '../resources/unreadable.js';
import { describeTable as describe } from '../sql/describe-table.js';
import { fenceJson } from './support/fence-json.js';
import {
  everyOf,
  fields,
  finite,
  isRows,
  isString,
  isStringOrNull,
  optional,
  withQuickCheck,
} from './support/quick-check.js';
import { RowsShape } from './support/schemas.js';

const isColumn = (value: unknown): boolean => {
  const c = fields(value);
  return (
    c !== undefined &&
    isString(c.name) &&
    isString(c.type) &&
    typeof c.notNull === 'boolean' &&
    isStringOrNull(c.defaultValue) &&
    finite(c.primaryKey) &&
    finite(c.hidden)
  );
};

const isIndex = (value: unknown): boolean => {
  const i = fields(value);
  return (
    i !== undefined &&
    isString(i.name) &&
    typeof i.unique === 'boolean' &&
    isString(i.origin) &&
    typeof i.partial === 'boolean' &&
    everyOf(i.columns, isStringOrNull)
  );
};

const isForeignKey = (value: unknown): boolean => {
  const k = fields(value);
  return (
    k !== undefined &&
    isString(k.table) &&
    everyOf(k.from, isString) &&
    everyOf(k.to, isStringOrNull) &&
    isString(k.onUpdate) &&
    isString(k.onDelete)
  );
};

/** A description as the output schema below accepts it, checked without zod (see quick-check.ts). */
function isDescription(value: unknown): boolean {
  const d = fields(value);
  const sample = fields(d?.sample);
  return (
    d !== undefined &&
    sample !== undefined &&
    isString(d.name) &&
    (d.type === 'table' || d.type === 'view') &&
    everyOf(d.columns, isColumn) &&
    everyOf(d.indexes, isIndex) &&
    everyOf(d.foreignKeys, isForeignKey) &&
    (finite(d.rowCount) || isStringOrNull(d.rowCount)) &&
    optional(isString)(d.countError) &&
    optional(isString)(d.sampleError) &&
    isRows(sample.columns, sample.rows) &&
    typeof sample.truncated === 'boolean'
  );
}

export const describeTable = defineTool({
  name: 'describe_table',
  title: 'Describe a table',
  description:
    'Shows one table or view: its columns (name, declared type, NOT NULL, default, primary key), indexes, ' +
    'foreign keys, row count and a few sample rows. The name is matched case-insensitively; list_tables shows them.',
  input: z.object({
    table_name: z.string().min(1).max(1024).describe('The table or view, as list_tables shows it'),
    sample_rows: z.number().int().min(0).max(50).optional().describe('Sample rows to include (default 5)'),
  }),
  output: withQuickCheck(
    z.object({
      name: z.string(),
      type: z.enum(['table', 'view']),
      columns: z.array(
        z.object({
          name: z.string(),
          type: z.string(),
          notNull: z.boolean(),
          defaultValue: z.string().nullable(),
          primaryKey: z.number(),
          hidden: z.number(),
        }),
      ),
      indexes: z.array(
        z.object({
          name: z.string(),
          unique: z.boolean(),
          origin: z.string(),
          partial: z.boolean(),
          columns: z.array(z.string().nullable()),
        }),
      ),
      foreignKeys: z.array(
        z.object({
          table: z.string(),
          from: z.array(z.string()),
          to: z.array(z.string().nullable()),
          onUpdate: z.string(),
          onDelete: z.string(),
        }),
      ),
      rowCount: z.union([z.number(), z.string(), z.null()]),
      countError: z.string().optional(),
      sample: z.object({ ...RowsShape, truncated: z.boolean() }),
      sampleError: z.string().optional(),
    }),
    isDescription,
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const { database, runner } = call.context;
    // sample_rows 0 still runs the sample at one row; it is dropped below.
    const sampleRows = Math.max(1, args.sample_rows ?? 5);
    // A view over a table since dropped cannot be described: that is the file's state, said in a sentence.
    const description = await whenReadable(args.table_name, () =>
      describe(database.schema, runner, args.table_name, { sampleRows, signal: call.signal }),
    );
    if (args.sample_rows === 0) description.sample = { ...description.sample, rows: [], truncated: false };
    const what = description.type === 'view' ? 'view' : 'table';
    const count =
      description.rowCount === null
        ? 'its rows could not be counted'
        : `${description.rowCount} ${description.rowCount === 1 ? 'row' : 'rows'}`;
    return {
      text: `The ${what} has ${description.columns.length} columns and ${count}; its description, as JSON:\n${fenceJson(description)}`,
      structured: description,
    };
  },
});
