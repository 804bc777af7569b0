import { type Call, type Lookup, withContext } from '@mcpkit/core/server';
import type { InsightMemo } from './sql/insights.js';
import type { OpenedDatabase } from './sql/open-database.js';
import type { QueryRunner } from './sql/query-runner.js';

/**
 * The SQLite server's own state, made once per app: the database named on the command line (with
 * the server's read-only schema connection), the query process that runs statements, and the
 * insights memo. Every handler reads it as `call.context`.
 */
export interface SqliteContext {
  /** The database file and the read-only connection used for the schema. Never show its path. */
  readonly database: OpenedDatabase;
  /** Runs statements in a process that a deadline or a cancellation can stop. */
  readonly runner: QueryRunner;
  /** What `append_insight` adds to; shown by the `memo://insights` resource. */
  readonly insights: InsightMemo;
  /**
   * Told after every statement this server ran that may have changed the database (`'data'`) or its
   * schema (`'schema'`), so subscribers hear of our own writes at once instead of at the next poll.
   */
  readonly changes: EventTarget;
}

/** The events {@link SqliteContext.changes} carries. */
export type ChangeKind = 'data' | 'schema';

/** Tells subscribers that a statement of ours changed the database. */
export function announceChange(context: SqliteContext, kind: ChangeKind): void {
  context.changes.dispatchEvent(new Event(kind));
}

export const { defineTool, definePrompt, defineResource, defineResourceTemplate } =
  withContext<SqliteContext>();

/** What every SQLite handler gets. */
export type SqliteCall = Call<SqliteContext>;
/** What SQLite listings and completions get. */
export type SqliteLookup = Lookup<SqliteContext>;
