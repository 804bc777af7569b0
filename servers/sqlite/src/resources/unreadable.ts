/**
 * A table or view SQLite itself cannot read, most often a view over a table that was dropped
 * since: the pragmas then throw SQLite's own error, which would otherwise reach the client as an
 * internal failure. It is the file's state, not a bug, so it gets a sentence.
 */
import { UserError } from '@mcpkit/core/errors';
import { shownName } from '../sql/display.js';
import { sqliteDetail } from '../sql/sqlite-message.js';

function isSqliteError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_')
  );
}

/**
 * Runs `read`; SQLite's own error while reading table `name` becomes a {@link UserError} naming
 * it. Anything else is thrown as it is.
 *
 * @example
 * ```ts
 * const schema = whenReadable('broken_view', () => describeSchema(db, 'broken_view'));
 * // UserError: SQLite cannot read "broken_view" (no such table: main.gone); it may refer to a table that no longer exists.
 * ```
 */
export async function whenReadable<T>(name: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isSqliteError(error)) throw error;
    // SQLite's message may quote the view's own text (a hostile file's words): only what is safe is kept.
    throw new UserError(
      `SQLite cannot read ${shownName(name)} (${sqliteDetail(error.message, error.code)}); it may refer to a table that no longer exists.`,
    );
  }
}
