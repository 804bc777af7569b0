/**
 * The database watch behind every subscription, driven without its timer: the interval is set far
 * beyond the test, and each check is triggered by an announcement on `context.changes`, which
 * re-reads the versions just as a poll does. So what it reports is asserted without waiting.
 */
import { silentLogger } from '@mcpkit/core/logging';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteContext } from '../src/context.js';
import { type DatabaseChange, DatabaseWatch, INSIGHT_EVENT } from '../src/resources/database-watch.js';
import { InsightMemo } from '../src/sql/insights.js';
import { openDatabase } from '../src/sql/open-database.js';
import { type Fixture, makeFixture } from './kit.js';
import { outside } from './protocol-kit.js';

const NEVER_MS = 3_600_000;

describe('database watch', () => {
  let fixture: Fixture | undefined;
  let watch: DatabaseWatch | undefined;
  afterEach(() => {
    watch?.stop();
    fixture?.cleanup();
  });

  function start() {
    fixture = makeFixture();
    const database = openDatabase(fixture.main, { write: false });
    // The watch reads the database and the change events only; no statement runs.
    const context = {
      database,
      insights: new InsightMemo(),
      changes: new EventTarget(),
    } as unknown as SqliteContext;
    const listChanges: string[] = [];
    watch = new DatabaseWatch(
      context,
      { hub: { listChanged: (kind) => void listChanges.push(kind) }, log: silentLogger },
      NEVER_MS,
    );
    const heard: DatabaseChange[] = [];
    for (const kind of ['data', 'schema', 'insight'] as const) watch.on([kind], () => heard.push(kind));
    const check = () => context.changes.dispatchEvent(new Event('data'));
    return { context, database, heard, listChanges, check };
  }

  it('tells data from schema changes, and lists changes only when tables come or go', () => {
    const { heard, listChanges, check } = start();
    outside(fixture!, 'INSERT INTO t(v, name) VALUES (99, NULL)');
    check();
    expect(heard).toEqual(['data']);
    heard.length = 0;
    outside(fixture!, 'CREATE INDEX t_by_v ON t(v)');
    check();
    expect(heard).toEqual(['schema', 'data']);
    expect(listChanges).toEqual([]);
    heard.length = 0;
    outside(fixture!, 'CREATE TABLE later(x)');
    check();
    expect(heard).toEqual(['schema', 'data']);
    expect(listChanges).toEqual(['resources']);
    outside(fixture!, 'DROP VIEW big_orders; CREATE TABLE big_orders(x)');
    check();
    // Same name, now a table: the listing shows it differently.
    expect(listChanges).toEqual(['resources', 'resources']);
  });

  it('reports an announced change even when nothing was committed, once', () => {
    const { context, heard } = start();
    context.changes.dispatchEvent(new Event('schema'));
    expect(heard).toEqual(['schema', 'data']);
    heard.length = 0;
    context.changes.dispatchEvent(new Event(INSIGHT_EVENT));
    expect(heard).toEqual(['insight']);
  });

  it('stops by itself once the database is closed', () => {
    const { context, database, heard } = start();
    database.close();
    context.changes.dispatchEvent(new Event('data'));
    context.changes.dispatchEvent(new Event(INSIGHT_EVENT));
    expect(heard).toEqual([]);
  });
});
