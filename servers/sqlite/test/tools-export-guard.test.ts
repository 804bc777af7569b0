/**
 * export_query with the database's own folder as the export directory, both eras, read-only and
 * write mode: the database file and its companions (-wal, -shm, -journal) are never an export
 * target, whatever the user agreed to, however they are spelt or reached (another case, a
 * subfolder, a hard link, a symbolic link). Each refusal is one sentence, the user is not even
 * asked, the database hashes the same and no file appears; an ordinary export beside the database
 * still works.
 */
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteContext } from '../src/context.js';
import { createSqliteApp } from '../src/server.js';
import { type Fixture, makeFixture, requireBuiltChild, sha256 } from './kit.js';
import { expectSentence } from './protocol-kit.js';
import { ERAS, type Era, structured, treeHash } from './tools-kit.js';

interface Served {
  fixture: Fixture;
  app: App<SqliteContext>;
  session: TestSession;
  /** How often the client was asked to agree. */
  asked: () => number;
}

/** The fixture served with its own folder (where main.db is) as the export directory. */
async function serveWithDatabaseFolder(era: Era, write: boolean): Promise<Served> {
  requireBuiltChild();
  const fixture = makeFixture();
  mkdirSync(join(fixture.dir, 'sub'));
  const app = createSqliteApp({ database: fixture.main, write, roots: await RootSet.create([fixture.dir]) });
  let asked = 0;
  const session = await connect(app, {
    era,
    elicitation: () => {
      asked++;
      return { action: 'accept', content: { confirm: true } };
    },
  });
  return { fixture, app, session, asked: () => asked };
}

const REFUSED =
  /is the database this server serves or one of its journal files, so no export is written there/;

describe.each(ERAS)('export_query next to the database, %s era', (era) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.session.close();
    await served?.app.close();
    served?.fixture.cleanup();
    served = undefined;
  });

  it.each([false, true])('never writes over the database or its journals (write mode: %s)', async (write) => {
    served = await serveWithDatabaseFolder(era, write);
    const { fixture, session } = served;
    linkSync(fixture.main, join(fixture.dir, 'alias.db'));
    symlinkSync(fixture.main, join(fixture.dir, 'link.db'));
    const hash = sha256(fixture.main);
    const before = treeHash(fixture.dir);
    const targets = [
      'main.db',
      join(fixture.dir, 'main.db'),
      'sub/../main.db',
      'main.db-journal',
      'main.db-wal',
      'main.db-shm',
      'MAIN.DB-JOURNAL',
      'sub/main.db-wal',
      'old-main.db-journal',
      'alias.db',
      'link.db',
    ];
    for (const path of targets) {
      for (const format of ['csv', 'json']) {
        const result = await session.callTool('export_query', {
          query: 'SELECT 1 AS a',
          path,
          format,
          confirm: true,
        });
        expect(result.isError, path).toBe(true);
        const text = textOf(result);
        // A link is refused by core (it leads to a file that is not replaced) or by the guard.
        if (path !== 'link.db') expect(text, path).toMatch(REFUSED);
        // The caller's own path may be quoted back; nothing else of this machine.
        expectSentence(text.replaceAll(path, 'x'), fixture);
      }
    }
    expect(served.asked()).toBe(0);
    expect(sha256(fixture.main)).toBe(hash);
    expect(treeHash(fixture.dir)).toEqual(before);
    // The database still answers, unchanged.
    const count = await session.callTool('read_query', { query: 'SELECT count(*) AS n FROM t' });
    expect(structured<{ rows: unknown[][] }>(count).rows).toEqual([[20]]);
  });

  it('still writes an ordinary export beside the database', async () => {
    served = await serveWithDatabaseFolder(era, false);
    const { fixture, session } = served;
    const hash = sha256(fixture.main);
    const result = await session.callTool('export_query', {
      query: 'SELECT id FROM customers ORDER BY id',
      path: 'main.db.csv',
    });
    expect(structured<{ written: boolean; rowCount: number }>(result)).toMatchObject({
      written: true,
      rowCount: 3,
    });
    expect(Object.keys(treeHash(fixture.dir))).toContain('main.db.csv');
    expect(sha256(fixture.main)).toBe(hash);
  });
});
