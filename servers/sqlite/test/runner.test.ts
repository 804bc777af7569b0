import { existsSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/sql/open-database.js';
import { QueryRunner } from '../src/sql/query-runner.js';
import { parseRowLines, rowLine } from '../src/sql/row-text.js';
import { alive, expectOneSentence, refusal, sha256, useOpenFixture, witness } from './kit.js';

const COUNT_FOREVER =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

const opened = useOpenFixture();

describe('QueryRunner, read-only', () => {
  it('answers columns and rows, values bound positionally or by name', async () => {
    const page = await opened.runner.run('SELECT id, name FROM t WHERE id <= ? ORDER BY id', {
      expect: 'read',
      params: [2],
    });
    expect(page).toMatchObject({
      columns: ['id', 'name'],
      rows: [
        [1, 'row 1'],
        [2, 'row 2'],
      ],
      truncated: false,
      statement: { kind: 'read', verb: 'SELECT' },
    });
    expect(page.next).toBeUndefined();
    const named = await opened.runner.run('SELECT name FROM customers WHERE name = :who', {
      expect: 'read',
      params: { who: "Ada'; DROP TABLE t; --" },
    });
    expect(named.rows).toEqual([]);
    const flag = await opened.runner.run('SELECT ?, ?', { expect: 'read', params: [true, null] });
    expect(flag.rows).toEqual([[1, null]]);
  });

  it('pages by row cap: truncated, with the offset of the next page', async () => {
    const first = await opened.runner.run('SELECT id FROM t ORDER BY id', { expect: 'read', maxRows: 8 });
    expect(first.rows.flat()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first).toMatchObject({ truncated: true, next: { offset: 8 } });
    const last = await opened.runner.run('SELECT id FROM t ORDER BY id', {
      expect: 'read',
      maxRows: 8,
      offset: 16,
    });
    expect(last.rows.flat()).toEqual([17, 18, 19, 20]);
    expect(last.truncated).toBe(false);
  });

  it('cuts a page at the byte budget, always keeping at least one row', async () => {
    const wide = "SELECT id, printf('%.1000c', 'x') FROM t ORDER BY id";
    const page = await opened.runner.run(wide, { expect: 'read', maxBytes: 3500 });
    expect(page.rows).toHaveLength(3);
    expect(page).toMatchObject({ truncated: true, next: { offset: 3 } });
    // The budget is the page's text exactly: its column line and row lines; one more row is over.
    const used = Buffer.byteLength(`${rowLine(page.columns)}\n${page.rowsText}`);
    expect(used).toBeLessThanOrEqual(3500);
    const fourth = await opened.runner.run(wide, { expect: 'read', maxRows: 1, offset: 3 });
    expect(used + 1 + Buffer.byteLength(fourth.rowsText)).toBeGreaterThan(3500);
    const one = await opened.runner.run("SELECT printf('%.3000c', 'y')", { expect: 'read', maxBytes: 1024 });
    expect(one.rows).toHaveLength(1);
  });

  it('returns a page read in several parts whole and in order', async () => {
    const many =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000) SELECT x, printf('%.40c', 'r') FROM c";
    const page = await opened.runner.run(many, { expect: 'read', maxRows: 5000 });
    // 5,000 rows of about 50 bytes: several parts of the query process's 64 KiB.
    expect(page.rows).toHaveLength(5000);
    expect(page.rows.every((row, i) => row[0] === i + 1 && row[1] === 'r'.repeat(40))).toBe(true);
    expect(page.rowsText.split('\n')).toHaveLength(5000);
    expect(parseRowLines(page.rowsText)).toEqual(page.rows);
    expect(page.truncated).toBe(false);
  });

  it('renders BLOBs, huge integers, infinities and long text safely', async () => {
    const page = await opened.runner.run(
      "SELECT x'00ff10', zeroblob(100000), 9223372036854775807, -9007199254740991, 1e999, 2.5, printf('%.50c', 'z')",
      { expect: 'read', maxCellChars: 20 },
    );
    expect(page.rows[0]).toEqual([
      { kind: 'blob', bytes: 3, hex: '00ff10' },
      { kind: 'blob', bytes: 100000, hex: '00'.repeat(32) },
      '9223372036854775807',
      -9007199254740991,
      'Infinity',
      2.5,
      { kind: 'text', chars: 50, preview: 'z'.repeat(20) },
    ]);
  });

  it('runs EXPLAIN QUERY PLAN for the explain expectation', async () => {
    const plan = await opened.runner.run('SELECT * FROM orders WHERE customer_id = 1', { expect: 'explain' });
    expect(plan.columns).toEqual(['id', 'parent', 'notused', 'detail']);
    expect(String(plan.rows[0]?.[3])).toMatch(/orders_by_customer/);
  });

  it('wraps SQLite’s own errors in one sentence', async () => {
    const error = await refusal(() => opened.runner.run('SELECT nope FROM t', { expect: 'read' }));
    expect(expectOneSentence(error, opened.fixture)).toBe(
      'SQLite refused the statement: no such column: nope.',
    );
    const params = await refusal(() => opened.runner.run('SELECT ?', { expect: 'read', params: [1, 2] }));
    expect(expectOneSentence(params)).toMatch(/^SQLite refused the statement: Too many parameter values/);
  });

  it('refuses bad limits and parameters with a sentence', async () => {
    expect(
      expectOneSentence(await refusal(() => opened.runner.run('SELECT 1', { expect: 'read', offset: -1 }))),
    ).toMatch(/row offset/);
    const nan = await refusal(() => opened.runner.run('SELECT ?', { expect: 'read', params: [Number.NaN] }));
    expect(expectOneSentence(nan)).toMatch(/finite number/);
  });

  it('keeps one warm process between calls', async () => {
    await opened.runner.run('SELECT 1', { expect: 'read' });
    const pid = opened.runner.pid;
    await opened.runner.run('SELECT 2', { expect: 'read' });
    expect(opened.runner.pid).toBe(pid);
  });

  it('kills the process at the time limit and starts a fresh one for the next call', async () => {
    await opened.runner.run('SELECT 1', { expect: 'read' });
    const pid = opened.runner.pid as number;
    const error = await refusal(() => opened.runner.run(COUNT_FOREVER, { expect: 'read', timeoutMs: 400 }));
    expect(expectOneSentence(error)).toMatch(/ran past its time limit of 0.4 s and was stopped/);
    expect(alive(pid)).toBe(false);
    expect(opened.runner.pid).not.toBe(pid);
    expect((await opened.runner.run('SELECT 3', { expect: 'read' })).rows).toEqual([[3]]);
  });

  it('kills the process on cancel, and a cancelled call waiting its turn never runs', async () => {
    await opened.runner.run('SELECT 1', { expect: 'read' });
    const pid = opened.runner.pid as number;
    const controller = new AbortController();
    const running = refusal(() =>
      opened.runner.run(COUNT_FOREVER, { expect: 'read', signal: controller.signal }),
    );
    const waiting = refusal(() =>
      opened.runner.run('SELECT 1', { expect: 'read', signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 200);
    expect(expectOneSentence(await running)).toBe('The call was cancelled.');
    expect(expectOneSentence(await waiting)).toBe('The call was cancelled.');
    expect(alive(pid)).toBe(false);
    const done = new AbortController();
    done.abort();
    expect(
      expectOneSentence(
        await refusal(() => opened.runner.run('SELECT 1', { expect: 'read', signal: done.signal })),
      ),
    ).toBe('The call was cancelled.');
  });

  it('reports rows read so far during a long query', async () => {
    const seen: number[] = [];
    const page = await opened.runner.run(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 800000) SELECT x FROM c',
      { expect: 'read', offset: 799_997, onProgress: (rows) => seen.push(rows) },
    );
    expect(page.rows.flat()).toEqual([799998, 799999, 800000]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((n, i) => n > 0 && (i === 0 || n >= (seen[i - 1] as number)))).toBe(true);
  });

  it('runs statements one at a time, in order', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((n) => opened.runner.run(`SELECT ${n}`, { expect: 'read' })),
    );
    expect(pages.map((p) => p.rows[0]?.[0])).toEqual([1, 2, 3]);
  });
});

describe('QueryRunner, write mode', () => {
  it('writes, asks for confirmation before DDL and unconditional deletes, and pages no write', async () => {
    const rw = openDatabase(opened.fixture.main, { write: true });
    const writer = new QueryRunner(rw);
    const before = sha256(opened.fixture.main);
    try {
      const insert = await writer.run('INSERT INTO t(v, name) VALUES (?, ?)', {
        expect: 'write',
        params: [99, 'new'],
      });
      expect(insert).toMatchObject({ changes: 1, lastInsertRowid: 21, statement: { kind: 'write' } });
      const returning = await writer.run('UPDATE t SET v = v + 1 WHERE id > 18 RETURNING id', {
        expect: 'write',
        maxRows: 1,
      });
      expect(returning).toMatchObject({ rows: [[19]], truncated: true });
      expect(returning.next).toBeUndefined();
      const ask = await refusal(() => writer.run('DELETE FROM t', { expect: 'write' }));
      expect(expectOneSentence(ask)).toMatch(
        /DELETE statement drops or rewrites data wholesale, so it runs only once the user confirms/,
      );
      const ddl = await refusal(() => writer.run('CREATE TABLE z(x)', { expect: 'write' }));
      expect(expectOneSentence(ddl)).toMatch(/changes the schema/);
      await writer.run('CREATE TABLE z(x)', { expect: 'write', confirmed: true });
      const asQuery = await refusal(() => writer.run('SELECT 1', { expect: 'write' }));
      expect(expectOneSentence(asQuery)).toMatch(/only reads; run it as a query/);
      const sneaky = await refusal(() =>
        writer.run('INSERT INTO z VALUES (1) RETURNING x', { expect: 'read' }),
      );
      expect(expectOneSentence(sneaky)).toMatch(/cannot run as a query/);
      expect(sha256(opened.fixture.main)).not.toBe(before);
    } finally {
      await writer.close();
      rw.close();
    }
  });

  it('rolls back a write stopped at the time limit: same bytes, no journal left behind', async () => {
    const rw = openDatabase(opened.fixture.main, { write: true });
    const writer = new QueryRunner(rw);
    try {
      const before = witness(opened.fixture);
      const endless = `INSERT INTO t(v, name) ${COUNT_FOREVER.replace('SELECT count(*) FROM c', "SELECT x, 'filler' FROM c")}`;
      const error = await refusal(() => writer.run(endless, { expect: 'write', timeoutMs: 700 }));
      expect(expectOneSentence(error)).toMatch(/time limit/);
      // The replacement process rolls the hot journal back as it opens.
      expect((await writer.run('SELECT count(*) FROM t', { expect: 'read' })).rows).toEqual([[21]]);
      expect(witness(opened.fixture)).toEqual(before);
    } finally {
      await writer.close();
      rw.close();
    }
  });

  it('removes an empty journal a killed writer left, but never while another connection writes', async () => {
    const journal = `${opened.fixture.main}-journal`;
    // Another connection in the middle of a write transaction: its (empty) journal is its own.
    const other = new Database(opened.fixture.main);
    other.exec('BEGIN IMMEDIATE');
    writeFileSync(journal, '');
    const rw = openDatabase(opened.fixture.main, { write: true });
    const held = new QueryRunner(rw);
    try {
      await held.run('SELECT 1', { expect: 'read', timeoutMs: 10_000 });
      expect(existsSync(journal)).toBe(true);
    } finally {
      await held.close();
      other.exec('ROLLBACK');
      other.close();
    }
    // Nobody writing: an empty journal holds nothing to roll back and goes.
    writeFileSync(journal, '');
    const before = sha256(opened.fixture.main);
    const tidy = new QueryRunner(rw);
    try {
      await tidy.run('SELECT 1', { expect: 'read' });
      expect(existsSync(journal)).toBe(false);
      expect(sha256(opened.fixture.main)).toBe(before);
    } finally {
      await tidy.close();
      rw.close();
    }
  });

  it('removes a journal whose header was never written (killed before its first sync)', async () => {
    const journal = `${opened.fixture.main}-journal`;
    const rw = openDatabase(opened.fixture.main, { write: true });
    const before = sha256(opened.fixture.main);
    try {
      // SQLite writes the magic number last: zeros there mean nothing was ever ready to roll back.
      writeFileSync(journal, Buffer.alloc(4096));
      const tidy = new QueryRunner(rw);
      try {
        await tidy.run('SELECT 1', { expect: 'read' });
      } finally {
        await tidy.close();
      }
      expect(existsSync(journal)).toBe(false);
      expect(sha256(opened.fixture.main)).toBe(before);
    } finally {
      rw.close();
    }
  });
});
