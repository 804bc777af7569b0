/**
 * Opening the database named on the command line. The path is checked once, resolved to an
 * absolute real path (so a symlink swapped later cannot move us), and only that path is ever
 * opened, by this process and by the query process. `:memory:`, `file:` URIs and anything that is
 * not a regular file are refused; in write mode a new file may be created in an existing folder.
 *
 * The server process keeps its own connection read-only in both modes: it only reads the schema.
 * Statements run in the query process (see query-runner.ts), which opens the file read-write only
 * in write mode.
 */

import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { type Connection, connect, createEmpty } from './connect.js';
import { shownName } from './display.js';

/** Busy timeout of the server process's schema connection: short, it runs on the event loop. */
const SCHEMA_BUSY_MS = 250;

/** The database file a server works on. */
export interface DatabaseFile {
  /** Absolute real path. Never put it in a message. */
  readonly path: string;
  /** Writes were allowed on the command line. */
  readonly write: boolean;
}

/** The database, with the server process's read-only schema connection. */
export interface OpenedDatabase extends DatabaseFile {
  readonly schema: Connection;
  close(): void;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Checks `given` and returns the absolute real path to open. Throws a {@link UserError} (naming
 * the file by its base name only) for `:memory:`, a `file:` URI, a missing file in read-only mode,
 * a missing folder, or anything that is not a regular file.
 *
 * @example
 * ```ts
 * resolveDatabasePath('data/shop.db', false); // '/home/me/project/data/shop.db'
 * ```
 */
export function resolveDatabasePath(given: string, write: boolean): string {
  const trimmed = given.trim();
  if (trimmed === '') throw new UserError('Give the database as the path of a file.');
  if (trimmed === ':memory:' || /^file:/i.test(trimmed)) {
    throw new UserError(
      'Give the database as a plain file path; in-memory databases and file: URIs are refused.',
    );
  }
  const absolute = resolve(given);
  const name = shownName(basename(absolute));
  let real: string;
  try {
    real = realpathSync.native(absolute);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw new UserError(`The database file ${name} cannot be reached.`);
    if (!write) throw new UserError(`The database file ${name} does not exist.`);
    real = newFilePath(absolute, name);
  }
  const info = statSync(real, { throwIfNoEntry: false });
  if (info && !info.isFile()) throw new UserError(`The database ${name} is not a regular file.`);
  // better-sqlite3 trims the file name it is given, which would open a different file.
  if (real !== real.trim()) throw new UserError(`The database path ${name} starts or ends with a space.`);
  return real;
}

/** Where a new file goes: the real folder, which must exist, plus the base name, which must be free. */
function newFilePath(absolute: string, name: string): string {
  let folder: string;
  try {
    folder = realpathSync.native(dirname(absolute));
  } catch {
    throw new UserError(`The folder for the new database ${name} does not exist.`);
  }
  if (!statSync(folder).isDirectory())
    throw new UserError(`The folder for the new database ${name} is not a folder.`);
  const path = join(folder, basename(absolute));
  // realpath failed but something is there: a dangling symlink, which SQLite would follow.
  if (lstatSync(path, { throwIfNoEntry: false })) {
    throw new UserError(`The database ${name} is a link to nothing; give the real path.`);
  }
  return path;
}

/**
 * Opens the database for a server: read-only unless `write`, creating an empty file in write mode
 * when there is none. The file must be a SQLite database.
 *
 * @example
 * ```ts
 * const db = openDatabase(process.argv[2] ?? '', { write: false });
 * try {
 *   console.log(listTables(db.schema));
 * } finally {
 *   db.close();
 * }
 * ```
 */
export function openDatabase(given: string, options: { write: boolean }): OpenedDatabase {
  const path = resolveDatabasePath(given, options.write);
  const name = shownName(basename(path));
  if (options.write && !statSync(path, { throwIfNoEntry: false })) createEmpty(path);
  let schema: Connection;
  try {
    schema = connect(path, false, SCHEMA_BUSY_MS);
  } catch {
    throw new UserError(`The database ${name} cannot be opened.`);
  }
  try {
    schema.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (error) {
    schema.close();
    if (errorCode(error) === 'SQLITE_NOTADB')
      throw new UserError(`The file ${name} is not a SQLite database.`);
    throw new UserError(`The database ${name} cannot be read.`);
  }
  return {
    path,
    write: options.write,
    schema,
    close: () => {
      if (schema.open) schema.close();
    },
  };
}
