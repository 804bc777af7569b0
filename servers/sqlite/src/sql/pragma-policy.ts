/**
 * Which PRAGMA statements may run. better-sqlite3 has no authorizer hook, and some pragmas act the
 * moment they are *prepared* (temp_store_directory, hard_heap_limit) or flip a guard the engine
 * relies on (query_only, writable_schema), so the decision is made from the text, before
 * `prepare`, against allowlists: anything not listed is refused, including pragmas SQLite adds
 * later.
 *
 * Read allowlist: every name here reported `stmt.readonly === true` on better-sqlite3 12.9.0 /
 * SQLite 3.53.0 (pinned by a test). Left out on purpose:
 * - `journal_mode`: even the bare read reports `readonly === false` (it may change the file), so
 *   the read-only check would refuse it anyway;
 * - `database_list`: its only news is the absolute host path of the file, and with ATTACH refused
 *   there is never a second database to list;
 * - `optimize`, `wal_checkpoint`, `incremental_vacuum`, `shrink_memory`: they act even bare;
 * - connection settings (`cache_size`, `busy_timeout`, `synchronous`, …): reading them is harmless
 *   but says nothing about the data, and keeping the list short keeps it reviewable.
 *
 * The same allowlist holds for the table-valued functions SQLite makes of the pragmas
 * (`SELECT * FROM pragma_database_list` shows the file's path, `pragma_optimize` runs ANALYZE):
 * a SELECT that names any other `pragma_…` is refused before it is prepared, see
 * {@link checkPragmaFunction}. Inside a view or trigger of the file they are refused by the engine
 * (trusted_schema is off, see connect.ts).
 */

import { UserError } from '@mcpkit/core/errors';
import { shownName } from './display.js';
import { asciiLower } from './sql-tokens.js';

/** Pragmas that only report something and take no argument. */
const READ_BARE: ReadonlySet<string> = new Set([
  'application_id',
  'auto_vacuum',
  'collation_list',
  'compile_options',
  'data_version',
  'encoding',
  'foreign_keys',
  'freelist_count',
  'function_list',
  'max_page_count',
  'module_list',
  'page_count',
  'page_size',
  'pragma_list',
  'schema_version',
  'user_version',
]);

/** Pragmas that report on the object named by their argument (`table_info(t)` or `table_info = t`); most also run bare. */
const READ_WITH_ARGUMENT: ReadonlySet<string> = new Set([
  'foreign_key_check',
  'foreign_key_list',
  'index_info',
  'index_list',
  'index_xinfo',
  'integrity_check',
  'quick_check',
  'table_info',
  'table_list',
  'table_xinfo',
]);

/** Of those, the ones that need their argument. */
const ARGUMENT_REQUIRED: ReadonlySet<string> = new Set([
  'foreign_key_list',
  'index_info',
  'index_list',
  'index_xinfo',
  'table_info',
  'table_xinfo',
]);

/**
 * Pragmas a write-mode server may set: plain header numbers with no effect on safety. Everything
 * else stays refused even then: `writable_schema` (lets SQL rewrite the schema table),
 * `journal_mode=OFF` / `synchronous=OFF` (a query stopped at its time limit could then leave a
 * corrupt file), `query_only`, `temp_store_directory`, `foreign_keys`, and so on.
 */
const WRITABLE: ReadonlySet<string> = new Set(['application_id', 'user_version']);

/** Schemas a pragma may name: with ATTACH refused there are no others. */
const SCHEMAS: ReadonlySet<string> = new Set(['main', 'temp']);

/** A PRAGMA as the classifier read it. */
export interface PragmaUse {
  schema?: string;
  name: string;
  /** `=` form or `(…)` form, with its argument. */
  hasArgument: boolean;
}

/** How an allowed pragma counts: a read, or (write mode only) a write. */
export type PragmaVerdict = 'read' | 'write';

/**
 * Decides whether a PRAGMA may run, throwing a {@link UserError} that names it when not.
 *
 * @example
 * ```ts
 * pragmaVerdict({ name: 'table_info', hasArgument: true }, false); // 'read'
 * pragmaVerdict({ name: 'query_only', hasArgument: true }, true); // throws
 * ```
 */
export function pragmaVerdict(use: PragmaUse, write: boolean): PragmaVerdict {
  const name = asciiLower(use.name);
  if (use.schema !== undefined && !SCHEMAS.has(asciiLower(use.schema))) {
    throw new UserError('A PRAGMA may only name the main database; no other database is open.');
  }
  if (name === 'writable_schema') {
    throw new UserError('PRAGMA writable_schema is refused: it would let SQL rewrite the schema itself.');
  }
  if (!use.hasArgument && READ_BARE.has(name)) return 'read';
  if (READ_WITH_ARGUMENT.has(name) && (use.hasArgument || !ARGUMENT_REQUIRED.has(name))) return 'read';
  if (use.hasArgument && WRITABLE.has(name)) {
    if (write) return 'write';
    throw new UserError(`PRAGMA ${name} cannot be set: the database is open read-only.`);
  }
  throw new UserError(
    `PRAGMA ${shownName(name)}${use.hasArgument ? ' with a value' : ''} is not allowed here; reading pragmas such as table_info, index_list and user_version are.`,
  );
}

/** The read pragmas, for tests and documentation. */
export function readPragmaNames(): { bare: string[]; withArgument: string[] } {
  return { bare: [...READ_BARE], withArgument: [...READ_WITH_ARGUMENT] };
}

/** How SQLite names the table-valued function of a pragma. */
const FUNCTION_PREFIX = 'pragma_';

/**
 * Throws a {@link UserError} when `identifier` (a name written in a statement, any case) is the
 * table-valued function of a pragma that is not a read on the allowlist. Any other name passes.
 *
 * @example
 * ```ts
 * checkPragmaFunction('pragma_table_info'); // passes
 * checkPragmaFunction('PRAGMA_DATABASE_LIST'); // throws: it shows where the file is
 * ```
 */
export function checkPragmaFunction(identifier: string): void {
  const lower = asciiLower(identifier);
  // `pragma_list` is a pragma's own name (PRAGMA pragma_list), not a function: there is no pragma `list`.
  if (!lower.startsWith(FUNCTION_PREFIX) || READ_BARE.has(lower)) return;
  const name = lower.slice(FUNCTION_PREFIX.length);
  if (name === 'database_list') {
    throw new UserError(
      'pragma_database_list is refused: it shows where the database file is on this machine, and no other database is open.',
    );
  }
  if (READ_BARE.has(name) || READ_WITH_ARGUMENT.has(name)) return;
  throw new UserError(
    `${shownName(identifier)} is not allowed here; of the pragma functions only those that read, such as pragma_table_info and pragma_index_list, are.`,
  );
}
