/**
 * One watch per database for every subscription of the SQLite resources, and for `list_changed`.
 *
 * Two ways a change is learnt:
 * - polling the server's read-only schema connection: `PRAGMA data_version` moves when any other
 *   connection commits (another program, or our own query process, which is a separate
 *   connection), `PRAGMA schema_version` when the schema changed;
 * - `context.changes`, where the tools announce their own writes (`'data'`, `'schema'`) and new
 *   insights (`'insight'`), so a subscriber hears of them at once instead of at the next poll.
 *
 * One poller serves every subscribed URI (each adds a listener here), so a hundred subscriptions
 * cost two tiny PRAGMAs per interval, not two hundred. The watch also tells the hub when the set of
 * tables and views changed, so clients that listed resources hear `resources/list_changed`.
 */
import { errorMessage } from '@mcpkit/core/errors';
import type { Logger } from '@mcpkit/core/logging';
import type { SubscriptionHub, WatchFactory } from '@mcpkit/core/subscriptions';
import type { SqliteContext, SqliteLookup } from '../context.js';
import { listTables } from '../sql/identifiers.js';
import { versions } from '../sql/schema-cache.js';

/** What a listener can wait for. `schema` implies `data`: both are told. */
export type DatabaseChange = 'data' | 'schema' | 'insight';

/**
 * The event the insights resource listens for on `context.changes`, dispatched by append_insight.
 * Its own name, so a new insight does not make every table subscriber re-read its table.
 */
export const INSIGHT_EVENT = 'insight';

/** Pause between two polls of the schema connection. */
export const POLL_INTERVAL_MS = 500;

/** What the watch needs of the app: where list changes go, and the process log. */
export interface WatchHost {
  readonly hub: Pick<SubscriptionHub, 'listChanged'>;
  readonly log: Logger;
}

/**
 * Watches one database: polls its versions and relays `context.changes`, telling listeners what
 * changed. Stops by itself once the database is closed (the app closing), so it never outlives it.
 */
export class DatabaseWatch {
  readonly #context: SqliteContext;
  readonly #host: WatchHost;
  readonly #listeners = new EventTarget();
  readonly #relay = (event: Event) => this.#check(event.type as DatabaseChange);
  /** The versions and tables last seen; undefined until a first read succeeds. */
  #seen: { dataVersion: number; schemaVersion: number; tables: string } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #failing = false;

  constructor(context: SqliteContext, host: WatchHost, intervalMs = POLL_INTERVAL_MS) {
    this.#context = context;
    this.#host = host;
    this.#check();
    if (this.#stopped) return; // the database was already closed
    for (const kind of ['data', 'schema', INSIGHT_EVENT]) context.changes.addEventListener(kind, this.#relay);
    const tick = () => {
      this.#timer = setTimeout(() => {
        this.#check();
        if (!this.#stopped) tick();
      }, intervalMs);
      // Polling is no reason to keep a finished process alive.
      this.#timer.unref();
    };
    tick();
  }

  /** Calls `listener` on each change of one of `kinds`; returns the remover. */
  on(kinds: readonly DatabaseChange[], listener: () => void): () => void {
    for (const kind of kinds) this.#listeners.addEventListener(kind, listener);
    return () => {
      for (const kind of kinds) this.#listeners.removeEventListener(kind, listener);
    };
  }

  /** Stops polling and relaying; listeners hear nothing more. Idempotent. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const kind of ['data', 'schema', INSIGHT_EVENT])
      this.#context.changes.removeEventListener(kind, this.#relay);
  }

  /** The listed tables and views as one string: what `resources/list` shows of them. */
  #tableKey(): string {
    return listTables(this.#context.database.schema)
      .map((t) => `${t.type}:${t.name}`)
      .join('\0');
  }

  /**
   * Reads both versions and tells listeners what moved. `announced` is what a tool said it did:
   * told even when the versions did not move, and the versions are re-read either way, so the
   * next poll does not report the same commit a second time. The first read only takes note.
   */
  #check(announced?: DatabaseChange): void {
    if (this.#stopped) return;
    if (announced === INSIGHT_EVENT) {
      this.#emit(INSIGHT_EVENT);
      return;
    }
    const db = this.#context.database.schema;
    if (!db.open) {
      this.stop();
      return;
    }
    let schema = announced === 'schema';
    let data = schema || announced === 'data';
    let tablesMoved = false;
    try {
      const { data: dataVersion, schema: schemaVersion } = versions(db);
      const before = this.#seen;
      schema ||= before !== undefined && schemaVersion !== before.schemaVersion;
      data ||= schema || (before !== undefined && dataVersion !== before.dataVersion);
      // Listing the tables is done only when the schema may have changed.
      const tables = before === undefined || schema ? this.#tableKey() : before.tables;
      tablesMoved = before !== undefined && tables !== before.tables;
      this.#seen = { dataVersion, schemaVersion, tables };
      this.#failing = false;
    } catch (error) {
      // Most likely a writer held the file past the busy timeout: the next poll sees the change.
      const message = `sqlite: checking the database for changes failed: ${errorMessage(error)}`;
      if (this.#failing) this.#host.log.debug(message);
      else this.#host.log.warn(message);
      this.#failing = true;
    }
    if (tablesMoved) this.#host.hub.listChanged('resources');
    if (schema) this.#emit('schema');
    if (data) this.#emit('data');
  }

  #emit(kind: DatabaseChange): void {
    this.#listeners.dispatchEvent(new Event(kind));
  }
}

const watches = new WeakMap<SqliteContext, DatabaseWatch>();

/**
 * The watch of this app's database, started on first use. Any resource listing, read or
 * subscription starts it, so a client that has seen the resources hears when tables come and go;
 * the app can start it at creation with {@link startDatabaseWatch} to cover clients that never
 * listed anything.
 */
export function databaseWatch(lookup: Pick<SqliteLookup, 'context' | 'app'>): DatabaseWatch {
  return startDatabaseWatch(lookup.context, lookup.app);
}

/**
 * Starts the watch of `context`'s database (once; later calls return the same watch).
 *
 * @example
 * ```ts
 * // in createApp's context.create(app):
 * const context = { database, runner, insights, changes: new EventTarget() };
 * startDatabaseWatch(context, app);
 * ```
 */
export function startDatabaseWatch(context: SqliteContext, host: WatchHost): DatabaseWatch {
  let watch = watches.get(context);
  if (!watch) {
    watch = new DatabaseWatch(context, host);
    watches.set(context, watch);
  }
  return watch;
}

/** Stops the watch of `context`'s database, if one runs (the app's close; it also stops by itself). */
export function stopDatabaseWatch(context: SqliteContext): void {
  watches.get(context)?.stop();
  watches.delete(context);
}

/**
 * A resource's `watch`: the subscribed URI hears `resources/updated` on each change of `kinds`.
 *
 * @example
 * ```ts
 * defineResource({ …, watch: changesOf(['schema']) });
 * ```
 */
export function changesOf(
  kinds: readonly DatabaseChange[],
): (uri: string, lookup: SqliteLookup) => WatchFactory {
  return (_uri, lookup) => (_subscribed, changed) => {
    const stop = databaseWatch(lookup).on(kinds, changed);
    return { close: stop };
  };
}
