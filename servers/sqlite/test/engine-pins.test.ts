/**
 * Pins the better-sqlite3 / SQLite behaviour this server relies on. `stmt.readonly` moves between
 * SQLite versions (bare REINDEX has flipped before), so an upgrade that changes any of these fails
 * here first. Statements are only prepared on a scratch database, never run, except where noted.
 */

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPragmaNames } from '../src/sql/pragma-policy.js';
import { type Fixture, listing, makeFixture } from './kit.js';

let fixture: Fixture;
let db: Database.Database;

beforeAll(() => {
  fixture = makeFixture();
  db = new Database(fixture.main, { readonly: true, fileMustExist: true });
});

afterAll(() => {
  db.close();
  fixture.cleanup();
});

describe('better-sqlite3 12.9.0 / SQLite 3.53.0', () => {
  it('is the version these pins were measured on', () => {
    expect(db.prepare('SELECT sqlite_version()').pluck().get()).toBe('3.53.0');
  });

  it.each([
    ["ATTACH DATABASE 'x.db' AS a", true],
    ['DETACH a', true],
    ['PRAGMA query_only=OFF', true],
    ['BEGIN', true],
    ['SAVEPOINT s', true],
    ['PRAGMA writable_schema=ON', true],
    ['REINDEX', false],
    ["VACUUM INTO 'copy.db'", false],
    ['ANALYZE', false],
    ['PRAGMA user_version=3', false],
    ['WITH m AS (SELECT 1) DELETE FROM t', false],
    ['PRAGMA journal_mode', false],
    ['EXPLAIN QUERY PLAN DELETE FROM t', false],
    ['EXPLAIN QUERY PLAN SELECT * FROM t', true],
    ['SELECT * FROM pragma_table_info(?)', true],
  ])('stmt.readonly of %j is %s', (sql, readonly) => {
    expect(db.prepare(sql).readonly).toBe(readonly);
  });

  it('so stmt.readonly alone would let ATTACH, PRAGMA query_only and writable_schema through', () => {
    for (const sql of ["ATTACH 'x.db' AS a", 'PRAGMA query_only=OFF', 'PRAGMA writable_schema=ON']) {
      expect(db.prepare(sql).readonly).toBe(true);
    }
  });

  it('reports every allowlisted read pragma as readonly and a reader', () => {
    const { bare, withArgument } = readPragmaNames();
    for (const name of bare) {
      const stmt = db.prepare(`PRAGMA ${name}`);
      expect([name, stmt.readonly, stmt.reader]).toEqual([name, true, true]);
    }
    for (const name of withArgument) {
      const stmt = db.prepare(`PRAGMA ${name}(t)`);
      expect([name, stmt.readonly, stmt.reader]).toEqual([name, true, true]);
    }
  });

  it('refuses a second statement in prepare without preparing it, but accepts trailing comments and ;', () => {
    expect(() => db.prepare('SELECT 1; DELETE FROM t')).toThrow(/more than one statement/);
    expect(db.prepare('SELECT 1; -- done').reader).toBe(true);
    expect(db.prepare('SELECT 1;;').reader).toBe(true);
  });

  it('keeps load_extension() disabled as an SQL function', () => {
    expect(() => db.prepare("SELECT load_extension('x')").get()).toThrow(/not authorized/);
  });

  it('refuses writes on a readonly-flag connection even after PRAGMA query_only=OFF', () => {
    db.prepare('PRAGMA query_only=OFF').run();
    expect(() => db.prepare('DELETE FROM t').run()).toThrow(/readonly/);
  });

  it('refuses ATTACH of a new file on a readonly-flag connection and creates nothing', () => {
    const before = listing(fixture.dir);
    expect(() => db.prepare(`ATTACH '${fixture.dir}/new.db' AS n`).run()).toThrow();
    expect(listing(fixture.dir)).toEqual(before);
  });

  it('caps SQLITE_LIMIT_LENGTH at Node’s largest buffer, so a 600 MB blob is refused', () => {
    expect(() => db.prepare('SELECT zeroblob(600000000)').get()).toThrow(/too big/);
  });

  it('is in defensive mode: even with writable_schema on, sqlite_schema cannot be edited', () => {
    const scratch = `${fixture.dir}/defensive.db`;
    const rw = new Database(scratch);
    try {
      rw.exec('CREATE TABLE a(x)');
      rw.unsafeMode(false);
      rw.pragma('writable_schema = ON');
      expect(() => rw.exec("UPDATE sqlite_schema SET sql = 'CREATE TABLE a(y)' WHERE name = 'a'")).toThrow(
        /may not be modified/,
      );
    } finally {
      rw.close();
    }
  });
});
