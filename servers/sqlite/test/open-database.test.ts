import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, resolveDatabasePath } from '../src/sql/open-database.js';
import { expectOneSentence, type Fixture, listing, makeFixture, refusal, sha256 } from './kit.js';

let fixture: Fixture;

beforeAll(() => {
  fixture = makeFixture();
});

afterAll(() => fixture.cleanup());

describe('openDatabase', () => {
  it('opens an existing file read-only through its absolute real path, from a relative one', () => {
    const before = sha256(fixture.main);
    const db = openDatabase(relative(process.cwd(), fixture.main), { write: false });
    try {
      expect(db.path).toBe(realpathSync(fixture.main));
      expect(db.write).toBe(false);
      expect(db.schema.readonly).toBe(true);
      expect(() => db.schema.prepare('DELETE FROM t').run()).toThrow(/readonly/);
    } finally {
      db.close();
    }
    expect(sha256(fixture.main)).toBe(before);
  });

  it('follows a symlink given on the command line to the real file', () => {
    const link = join(fixture.dir, 'link.db');
    symlinkSync(fixture.main, link);
    expect(resolveDatabasePath(link, false)).toBe(realpathSync(fixture.main));
  });

  it('keeps the schema connection read-only in write mode too', () => {
    const db = openDatabase(fixture.main, { write: true });
    try {
      expect(db.write).toBe(true);
      expect(db.schema.readonly).toBe(true);
    } finally {
      db.close();
    }
  });

  it('creates a new empty database in an existing folder in write mode only', async () => {
    const fresh = join(fixture.dir, 'fresh.db');
    expectOneSentence(await refusal(() => openDatabase(fresh, { write: false })), fixture);
    expect(listing(fixture.dir)).not.toContain('fresh.db');
    const db = openDatabase(fresh, { write: true });
    db.close();
    expect(listing(fixture.dir)).toContain('fresh.db');
  });

  it.each([
    [':memory:', /in-memory databases and file: URIs are refused/],
    ['  :memory:  ', /in-memory/],
    ['file:x.db?mode=rwc', /file: URIs/],
    ['FILE:/etc/hosts', /file: URIs/],
    ['', /path of a file/],
    ['   ', /path of a file/],
  ])('refuses %j', async (given, message) => {
    const error = await refusal(() => openDatabase(given, { write: true }));
    expect(expectOneSentence(error, fixture)).toMatch(message);
  });

  it('refuses a folder, a device, a missing file and a missing folder, naming only the base name', async () => {
    const cases: [string, boolean, RegExp][] = [
      [fixture.dir, false, /is not a regular file/],
      [fixture.dir, true, /is not a regular file/],
      ['/dev/null', false, /"null" is not a regular file/],
      [join(fixture.dir, 'missing.db'), false, /"missing.db" does not exist/],
      [join(fixture.dir, 'no', 'such', 'x.db'), true, /folder for the new database "x.db" does not exist/],
    ];
    for (const [given, write, message] of cases) {
      expect(expectOneSentence(await refusal(() => openDatabase(given, { write })), fixture)).toMatch(
        message,
      );
    }
  });

  it('refuses a file that is not a SQLite database and leaves it as it was', async () => {
    const text = join(fixture.dir, 'notes.txt');
    writeFileSync(
      text,
      'just some text, long enough to look like a header of something else entirely\n'.repeat(20),
    );
    const before = sha256(text);
    const error = await refusal(() => openDatabase(text, { write: false }));
    expect(expectOneSentence(error, fixture)).toMatch(/"notes.txt" is not a SQLite database/);
    expect(sha256(text)).toBe(before);
  });

  it('refuses a name that ends in a space (better-sqlite3 would trim it and open another file)', async () => {
    const spaced = join(fixture.dir, 'main.db ');
    writeFileSync(spaced, '');
    const error = await refusal(() => openDatabase(spaced, { write: false }));
    expect(expectOneSentence(error, fixture)).toMatch(/starts or ends with a space/);
  });

  it('refuses a dangling symlink in write mode rather than create its target elsewhere', async () => {
    const elsewhere = join(fixture.dir, 'elsewhere');
    mkdirSync(elsewhere);
    const link = join(fixture.dir, 'dangling.db');
    symlinkSync(join(elsewhere, 'target.db'), link);
    const error = await refusal(() => openDatabase(link, { write: true }));
    expect(expectOneSentence(error, fixture)).toMatch(/link to nothing/);
    expect(listing(elsewhere)).toEqual([]);
  });
});
