/**
 * What the server reads from a database's schema, kept until the schema changes, and the schema
 * connection's statements, prepared once.
 *
 * SQLite counts every schema change in the file's header (`PRAGMA schema_version`, bumped by any
 * connection, ours or another program's), and it keeps its own parsed schema by the same counter.
 * Reading the counter is one header read; listing a thousand tables or describing a 200-column
 * table is hundreds of rows of pragma output (measured: 0.95 ms and 0.8 ms a call). So those are
 * read once per schema version and served from here until the counter moves.
 *
 * Cached values are frozen: every caller shares them.
 */
import type Database from 'better-sqlite3';
import type { Connection } from './connect.js';

/** Most values (and statements) kept for one connection; past it that cache starts over. */
const MAX_ENTRIES = 512;

/** Values read at one version of the file; they all go when the version moves. */
interface Versioned {
  version: unknown;
  readonly values: Map<string, unknown>;
}

interface Cache {
  /** By schema version. */
  readonly schema: Versioned;
  /** By `schema:data` version. */
  readonly data: Versioned;
  readonly statements: Map<string, Database.Statement>;
}

const caches = new WeakMap<Connection, Cache>();

function cacheOf(db: Connection): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = {
      schema: { version: undefined, values: new Map() },
      data: { version: undefined, values: new Map() },
      statements: new Map(),
    };
    caches.set(db, cache);
  }
  return cache;
}

/**
 * `sql` prepared on `db` once and reused. Only for statements of this server's own text, each
 * always used in the same mode (a caller that wants `pluck()` asks for it every time).
 */
export function prepared(db: Connection, sql: string): Database.Statement {
  const { statements } = cacheOf(db);
  let statement = statements.get(sql);
  if (!statement) {
    // Per-table statements make this grow with the schema; a full cache starts over.
    if (statements.size >= MAX_ENTRIES) statements.clear();
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

/** `slot`'s value under `key` at `version`, read (and frozen) when the slot has none for it. */
function remember<T>(slot: Versioned, version: unknown, key: string, read: () => T): T {
  if (version !== slot.version || slot.values.size >= MAX_ENTRIES) {
    slot.values.clear();
    slot.version = version;
  }
  if (slot.values.has(key)) return slot.values.get(key) as T;
  const value = deepFreeze(read());
  slot.values.set(key, value);
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The value under `key` for the schema `db` has now: `read()` once per schema version, frozen.
 * A failure is thrown and not kept.
 *
 * @example
 * ```ts
 * const tables = bySchema(db, 'tables', () => db.prepare('SELECT name FROM sqlite_schema').all());
 * ```
 */
export function bySchema<T>(db: Connection, key: string, read: () => T): T {
  const version = prepared(db, 'PRAGMA schema_version').pluck().get();
  return remember(cacheOf(db).schema, version, key, read);
}

/**
 * The two counters of `db` in one read: `schema` moves with every schema change, `data` whenever
 * another connection commits. The data cache here and the database watch both go by them.
 */
export function versions(db: Connection): { schema: number; data: number } {
  const [schema, data] = prepared(db, 'SELECT * FROM pragma_schema_version, pragma_data_version')
    .raw()
    .get() as [number, number];
  return { schema, data };
}

/**
 * Like {@link bySchema}, for a fact about the stored data (is a table's b-tree sound?): kept until
 * the schema or the data changes. `PRAGMA data_version` moves whenever another connection commits,
 * our own query process included.
 */
export function byData<T>(db: Connection, key: string, read: () => T): T {
  const { schema, data } = versions(db);
  return remember(cacheOf(db).data, `${schema}:${data}`, key, read);
}
