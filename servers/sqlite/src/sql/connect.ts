/**
 * The one way this server opens a SQLite connection, shared by the server process (schema look-ups)
 * and the query process (statements). It imports nothing but better-sqlite3, so the query process
 * stays small.
 *
 * What better-sqlite3 12.9.0 gives and does not give (read from its C++ source):
 * - `readonly: true` opens with SQLITE_OPEN_READONLY: the engine refuses every write itself;
 * - SQLITE_DBCONFIG_DEFENSIVE is switched on by the constructor, and `unsafeMode(false)` (the
 *   default) sets it again; we call it anyway so the intent is visible and survives a default change;
 * - the SQL function `load_extension()` stays disabled (only the C API is enabled, for
 *   `db.loadExtension`, which this server never calls);
 * - URIs are off (built with SQLITE_USE_URI=0; the SQLITE_USE_URI environment variable can turn
 *   them on, which is why the query process gets an empty environment);
 * - `trusted_schema` is on by default, so a view or trigger in the file could use any virtual table
 *   or function: `CREATE VIEW v AS SELECT * FROM pragma_database_list` would show the file's path
 *   to whoever reads `v`. We switch it off, SQLite's advice for files from elsewhere: a view or
 *   trigger may then use only functions and virtual tables marked innocuous (pragma functions and
 *   FTS5's MATCH are not; a query written in a call may still use both);
 * - SQLITE_LIMIT_LENGTH is set to Node's largest string/buffer (about 512 MiB), but there is no
 *   API for `sqlite3_limit` (so no SQLITE_LIMIT_ATTACHED=0), no `sqlite3_interrupt`, no authorizer,
 *   and the progress handler is compiled out (SQLITE_OMIT_PROGRESS_CALLBACK).
 */

import Database from 'better-sqlite3';

/** An open better-sqlite3 connection. */
export type Connection = Database.Database;

/**
 * Opens an existing database file: read-only by the engine's flag unless `write`, defensive, the
 * file's schema untrusted, `busyMs` as the busy timeout. `path` must already be a checked absolute
 * real path.
 */
export function connect(path: string, write: boolean, busyMs: number): Connection {
  const db = new Database(path, { readonly: !write, fileMustExist: true, timeout: busyMs });
  db.unsafeMode(false);
  db.pragma('trusted_schema = OFF');
  return db;
}

/** Creates an empty database file at `path` (SQLite creates the file on open) and closes it. */
export function createEmpty(path: string): void {
  new Database(path, { fileMustExist: false }).close();
}
