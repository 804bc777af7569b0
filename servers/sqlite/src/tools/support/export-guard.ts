/**
 * Keeps a file export off the database itself. An export directory may hold the database (the
 * operator may well pass the same folder), and export_query counts as read-only, so without this a
 * read-only server would replace its own database with a CSV once the user said yes, or plant a
 * `-journal` file that SQLite would "roll back" into the database at its next open. The database
 * file and its companions (`-wal`, `-shm`, `-journal`) are refused by real path, by device and
 * inode (a hard link or another mount of the same file), and by name: any file whose name ends in
 * the database's name plus a companion suffix, in any folder and in any case, since a case-folding
 * or aliased file system can make a different spelling the same file.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { UserError } from '@mcpkit/core/errors';

/** The files SQLite keeps beside a database, by suffix. */
const COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

function refusal(display: string): UserError {
  return new UserError(
    `"${display}" is the database this server serves or one of its journal files, so no export is written there; choose another file name.`,
  );
}

/**
 * Throws a {@link UserError} naming only `display` when `real` (an export target's resolved path)
 * is the database at `database` (its absolute real path) or one of its companion files, whether or
 * not the user agreed to replace the file.
 *
 * @example
 * ```ts
 * await refuseDatabaseTarget('/data/app.db', 'app.db', '/data/app.db'); // throws
 * await refuseDatabaseTarget('/data/out.csv', 'out.csv', '/data/app.db'); // passes
 * ```
 */
export async function refuseDatabaseTarget(real: string, display: string, database: string): Promise<void> {
  const name = basename(real).toLowerCase();
  const databaseName = basename(database).toLowerCase();
  if (COMPANION_SUFFIXES.some((suffix) => name.endsWith(`${databaseName}${suffix}`))) throw refusal(display);
  const protectedPaths = [database, ...COMPANION_SUFFIXES.map((suffix) => `${database}${suffix}`)];
  if (protectedPaths.includes(real)) throw refusal(display);
  const target = await stat(real).catch(() => undefined);
  if (!target) return;
  for (const path of protectedPaths) {
    const info = await stat(path).catch(() => undefined);
    if (info && info.dev === target.dev && info.ino === target.ino) throw refusal(display);
  }
}
