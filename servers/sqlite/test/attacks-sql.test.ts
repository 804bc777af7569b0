/**
 * Every hostile statement of the corpus, through the query runner as a tool would call it, in the
 * mode it targets (write-mode attacks are sent as confirmed writes, so confirmation is not what
 * stops them). Each must fail in one sentence, and leave both database files (sha256) and the
 * folder listing exactly as before.
 */

import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../src/sql/open-database.js';
import { QueryRunner } from '../src/sql/query-runner.js';
import { OUTSIDE, SQL_ATTACKS } from './attacks-corpus.js';
import { expectOneSentence, type Fixture, makeFixture, refusal, requireBuiltChild, witness } from './kit.js';

let fixture: Fixture;
let readOnly: OpenedDatabase;
let writable: OpenedDatabase;
const runners: Record<'read' | 'write', QueryRunner | undefined> = { read: undefined, write: undefined };

/** Paths in titles, without the random folder name. */
const TITLE: Fixture = {
  dir: '<dir>',
  main: '<dir>/main.db',
  other: '<dir>/other.db',
  cleanup: () => undefined,
};

beforeAll(() => {
  requireBuiltChild();
  fixture = makeFixture();
  readOnly = openDatabase(fixture.main, { write: false });
  writable = openDatabase(fixture.main, { write: true });
  runners.read = new QueryRunner(readOnly);
  runners.write = new QueryRunner(writable);
});

afterAll(async () => {
  await runners.read?.close();
  await runners.write?.close();
  readOnly.close();
  writable.close();
  fixture.cleanup();
  rmSync(OUTSIDE, { force: true });
});

describe('SQL attack corpus', () => {
  it('holds at least 60 statements', () => {
    expect(SQL_ATTACKS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(SQL_ATTACKS.map((attack) => [attack.group, attack.mode, attack.sql(TITLE), attack] as const))(
    '%s (%s mode): %j',
    async (_group, mode, _title, attack) => {
      const runner = runners[mode] as QueryRunner;
      const before = witness(fixture);
      const error = await refusal(() =>
        runner.run(attack.sql(fixture), {
          expect: attack.expect ?? (mode === 'read' ? 'read' : 'write'),
          confirmed: true,
          timeoutMs: 5_000,
        }),
      );
      expect(expectOneSentence(error, fixture)).toMatch(attack.message);
      expect(witness(fixture)).toEqual(before);
      expect(existsSync(OUTSIDE)).toBe(false);
    },
  );

  it('still answers honest queries on the same warm processes afterwards', async () => {
    const page = await runners.read?.run('SELECT count(*) FROM t', { expect: 'read' });
    expect(page?.rows).toEqual([[20]]);
    const secrets = await refusal(() => runners.read?.run('SELECT token FROM secrets', { expect: 'read' }));
    expect(expectOneSentence(secrets)).toMatch(/no such table: secrets/);
  });
});
