/**
 * The query process: it opens the database and runs one statement at a time for the server.
 *
 * Why a process and not a worker thread: better-sqlite3 has no `sqlite3_interrupt` and its build
 * leaves out the progress handler, so nothing can stop a statement inside one long native step
 * (`SELECT count(*)` over a recursive CTE never returns to JavaScript, nor does `.all()` over
 * endless rows). `Worker.terminate()` only stops JavaScript: measured on Node 20.20, such a worker
 * kept running and its terminate() had not settled 3 s later (with `.iterate()`, which returns to
 * JavaScript per row, it stopped in 13 ms). A process can be killed whatever it is doing; the
 * runner sends SIGKILL on deadline or cancel.
 *
 * This file runs as compiled JavaScript (dist/sql/query-child.js) and imports only better-sqlite3
 * and its siblings that do the same.
 */

import { closeSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { type Connection, connect } from './connect.js';
import type { ChildMessage, ChildResult, ParentMessage, RunMessage } from './query-protocol.js';
import { readRows } from './row-reader.js';

/** Busy timeout inside the query process: it is killed at the deadline anyway. */
const BUSY_MS = 5_000;

/** A refusal written for the user. */
class Refusal extends Error {}

let db: Connection | undefined;
let writable = false;

/** Bytes in `file`, or undefined when there is none. */
function sizeOf(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.size;
}

/**
 * True when the rollback journal at `journal` holds nothing to roll back: it is empty, or its
 * header's magic number is still zeros. SQLite writes the magic only once the journal's content is
 * synced, so a process killed before that leaves a journal SQLite itself ignores (not "hot") and
 * never removes. Anything else, including a journal that cannot be read, is left alone.
 */
function holdsNothing(journal: string): boolean {
  const size = sizeOf(journal);
  if (size === undefined) return false;
  if (size === 0) return true;
  let fd: number | undefined;
  try {
    fd = openSync(journal, 'r');
    const magic = Buffer.alloc(8);
    return readSync(fd, magic, 0, 8, 0) === 8 && magic.every((byte) => byte === 0);
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Removes a rollback journal that a killed query process left behind with nothing in it to roll
 * back (see {@link holdsNothing}). SQLite rolls back a journal with content (a hot journal) when the
 * file is next read, but one made by a process killed before its first sync is ignored and stays in
 * the folder. It is removed only under a RESERVED lock: then no other connection is writing, so the
 * journal can belong to nobody. When another writer holds the lock, it stays.
 */
function dropEmptyJournal(open: Connection, path: string): void {
  const journal = `${path}-journal`;
  if (!holdsNothing(journal)) return;
  try {
    open.exec('BEGIN IMMEDIATE');
  } catch {
    return;
  }
  try {
    if (holdsNothing(journal)) unlinkSync(journal);
  } finally {
    open.exec('ROLLBACK');
  }
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** What a write with RETURNING changed, read right after its rows. */
const COUNTS_SQL = 'SELECT changes(), last_insert_rowid()';
/**
 * The connection's last inserted rowid, read before a write: SQLite keeps it per connection, so
 * an UPDATE, a DELETE or an insert into a WITHOUT ROWID table leaves the previous insert's value.
 * Only a value the write itself changed is reported.
 */
const ROWID_SQL = 'SELECT last_insert_rowid()';

function rowid(value: number | bigint): number | string {
  return typeof value === 'bigint' && !Number.isSafeInteger(Number(value)) ? value.toString() : Number(value);
}

/** The connection's last inserted rowid, in the form `run` reports it. */
function lastRowid(database: Connection): number | bigint {
  return database.prepare(ROWID_SQL).pluck().get() as number | bigint;
}

function run(message: RunMessage): ChildResult {
  if (!db) throw new Error('no database is open');
  const stmt = db.prepare(message.sql);
  if (!writable && !stmt.readonly)
    throw new Refusal('The database is open read-only and this statement would change it.');
  if (message.expect === 'read' && !(stmt.reader && stmt.readonly)) {
    throw new Refusal('This statement does not only read, so it cannot run as a query.');
  }
  if (message.expect === 'explain' && !(stmt.reader && /^EXPLAIN\b/i.test(message.sql))) {
    throw new Refusal('Only an EXPLAIN can run as an explanation.');
  }
  const rowidBefore = stmt.readonly ? undefined : lastRowid(db);
  if (!stmt.reader) {
    const info = stmt.run(message.params);
    return {
      columns: [],
      rowsText: '',
      rowCount: 0,
      truncated: false,
      rowsRead: 0,
      changes: info.changes,
      ...(info.lastInsertRowid !== rowidBefore ? { lastInsertRowid: rowid(info.lastInsertRowid) } : {}),
    };
  }
  const page: ChildResult = readRows(stmt, message.params, message, {
    onProgress: (rows) => send({ type: 'progress', id: message.id, rows }),
    onChunk: (rowsText, rowCount) => send({ type: 'rows', id: message.id, rowsText, rowCount }),
  });
  if (!stmt.readonly) {
    // A write with RETURNING: SQLite made every change at its first step, so the count is whole
    // however the page of returned rows was cut; asked of this connection at once.
    const [changes, rowidAfter] = db.prepare(COUNTS_SQL).raw().get() as [number, number | bigint];
    page.changes = changes;
    if (rowidAfter !== rowidBefore) page.lastInsertRowid = rowid(rowidAfter);
  }
  return page;
}

function failure(id: number, error: unknown): ChildMessage {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error instanceof Refusal
      ? 'REFUSED'
      : error instanceof Error && 'code' in error && typeof error.code === 'string'
        ? error.code
        : undefined;
  // SqliteError carries a SQLITE_… code; better-sqlite3's own RangeError/TypeError are about the
  // statement or its parameters ("more than one statement", "Missing named parameter").
  const user =
    error instanceof Refusal ||
    code?.startsWith('SQLITE_') === true ||
    error instanceof RangeError ||
    error instanceof TypeError;
  return code === undefined ? { type: 'fail', id, message, user } : { type: 'fail', id, message, user, code };
}

process.on('disconnect', () => {
  if (db?.open) db.close();
  process.exit(0);
});

process.on('message', (message: ParentMessage) => {
  if (message.type === 'open') {
    try {
      db = connect(message.path, message.write, BUSY_MS);
      writable = message.write;
      // Reads the file now: it must be a database, and in write mode this rolls back a write that
      // an earlier query process was killed in the middle of (its hot journal).
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
      if (message.write) dropEmptyJournal(db, message.path);
      send({ type: 'ready' });
    } catch (error) {
      send({ type: 'open-failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  try {
    send({ type: 'done', id: message.id, result: run(message) });
  } catch (error) {
    send(failure(message.id, error));
  }
});
