/**
 * How the SQLite resources spell their URIs. A table name can hold any character ("/", "%", a
 * quote, a newline), so it is percent-encoded in the URI, and the SDK hands template variables back
 * still encoded: every reader decodes here, and a broken escape is the client's mistake.
 */
import { UserError } from '@mcpkit/core/errors';

/** Every table and view with its columns. */
export const SCHEMA_URI = 'sqlite://schema';

/** One table or view: its columns, indexes, foreign keys, row count and a few rows. */
export const TABLE_TEMPLATE = 'sqlite://table/{name}';

/** The notes `append_insight` adds (the URI the original Python server used). */
export const INSIGHTS_URI = 'memo://insights';

/**
 * The URI of table or view `name`, percent-encoded (a name may hold "/", "%", "#" or a quote).
 *
 * @example
 * ```ts
 * tableUri('order items'); // 'sqlite://table/order%20items'
 * tableUri('a/b'); // 'sqlite://table/a%2Fb'
 * ```
 */
export function tableUri(name: string): string {
  return `sqlite://table/${encodeURIComponent(name)}`;
}

/**
 * False for the three names no URI can carry: the template needs at least one character, and URL
 * parsing reads a path segment `.` or `..` (and `%2E`, `%2E%2E`) as a directory step and drops it.
 * Such a table is still served by the tools.
 */
export function hasUri(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..';
}

/**
 * The table name in a template variable, percent-decoded.
 *
 * @example
 * ```ts
 * tableNameOf('odd%22name'); // 'odd"name'
 * ```
 */
export function tableNameOf(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new UserError(
      'The table name in the URI has a broken %-escape; encode it with encodeURIComponent.',
    );
  }
}
