/**
 * The argument and result shapes the query tools share: a query with its bound parameters, and a
 * page of rows as it comes back from the query process (cells already rendered as JSON values).
 */
import * as z from 'zod';
import type { ParamInput } from '../../sql/query-limits.js';

/** One bound value: text, a number, a boolean (bound as 1 or 0) or null. */
const ParamValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** `params`: positional values for `?`, or named values for `:name`, `@name`, `$name`. */
export const Params = z
  .union([z.array(ParamValue).max(32_766), z.record(z.string().min(1).max(256), ParamValue)])
  .optional()
  .describe(
    'Values bound to the placeholders: an array for ? placeholders, or an object for :name placeholders ' +
      '(keys with or without the leading ":"). Put every value here, never inside the SQL text.',
  );

/** The SQL text of one statement. */
export const Query = (what: string) => z.string().min(1).max(100_000).describe(what);

/** One cell of a result row. */
export const CellSchema = z.union([
  z.null(),
  z.number(),
  z.string(),
  z.object({ kind: z.literal('blob'), bytes: z.number(), hex: z.string() }),
  z.object({ kind: z.literal('text'), chars: z.number(), preview: z.string() }),
]);

/** A page of rows, the shape read_query, describe_table's sample and write_query's RETURNING share. */
export const RowsShape = {
  columns: z.array(z.string()),
  rows: z.array(z.array(CellSchema)),
};

/**
 * Parameters as the runner takes them. Named keys may be written as the SQL spells them
 * (`:id`, `@id`, `$id`); better-sqlite3 wants the bare name.
 */
export function paramsOf(params: z.infer<typeof Params>): ParamInput | undefined {
  if (params === undefined || Array.isArray(params)) return params;
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key.replace(/^[:@$]/, ''), value]));
}
