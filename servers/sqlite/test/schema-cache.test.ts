/**
 * What the server reads from the schema is kept until the schema changes (schema-cache.ts), and a
 * small ordinary table is counted and sampled by the server itself (table-peek.ts). The cache must
 * follow every change, another program's included; the server's own read must give exactly what
 * the query process gives, and must be left to the query process for anything that runs code
 * (views, virtual tables, generated columns, expression defaults) or may take long (a big file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSchema, describeTable } from '../src/sql/describe-table.js';
import { listTables, resolveTable } from '../src/sql/identifiers.js';
import { type OpenedDatabase, openDatabase } from '../src/sql/open-database.js';
import { QueryRunner } from '../src/sql/query-runner.js';
import { PEEK_MAX_DATABASE_BYTES, peekTable } from '../src/sql/table-peek.js';
import { expectOneSentence, refusal, requireBuiltChild, sha256 } from './kit.js';

const SCHEMA = `
  CREATE TABLE plain(id INTEGER PRIMARY KEY, label TEXT, big INTEGER, data BLOB, score REAL);
  CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
  CREATE TABLE generated(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL);
  CREATE TABLE defaulted(a INTEGER, b DEFAULT (abs(-7)));
  CREATE VIRTUAL TABLE docs USING fts5(body);
  CREATE VIEW doubled AS SELECT id * 2 AS id2 FROM plain;
`;

let dir: string;
let file: string;
let db: OpenedDatabase;
let runner: QueryRunner;

beforeAll(() => {
  requireBuiltChild();
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-sqlite-cache-'));
  file = join(dir, 'cache.db');
  const setup = new Database(file);
  setup.exec(SCHEMA);
  const insert = setup.prepare('INSERT INTO plain(label, big, data, score) VALUES (?, ?, ?, ?)');
  setup.transaction(() => {
    insert.run('<b>first</b>', 9_223_372_036_854_775_807n, Buffer.from([0, 1, 255]), 1.5);
    insert.run('x'.repeat(5000), -3, null, null);
    insert.run('line\nbreak', 2, Buffer.alloc(100), -0.25);
    for (let i = 0; i < 10; i++) insert.run(`row ${i}`, i, null, i / 3);
    setup.exec("INSERT INTO keyed VALUES ('a', 1), ('b', 2); INSERT INTO generated(a) VALUES (1), (2)");
    setup.exec("INSERT INTO defaulted(a) VALUES (1); INSERT INTO docs VALUES ('hello')");
  })();
  setup.close();
  db = openDatabase(file, { write: false });
  runner = new QueryRunner(db);
});

afterAll(async () => {
  await runner.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Changes the file from another connection, as another program would. */
function elsewhere(sql: string): void {
  const other = new Database(file);
  try {
    other.exec(sql);
  } finally {
    other.close();
  }
}

describe('the schema cache', () => {
  it('follows tables made, altered and dropped by another connection', async () => {
    const before = listTables(db.schema).map((t) => t.name);
    expect(before).not.toContain('later');
    elsewhere('CREATE TABLE later(x)');
    expect(listTables(db.schema).map((t) => t.name)).toContain('later');
    expect(describeSchema(db.schema, 'LATER').columns.map((c) => c.name)).toEqual(['x']);
    elsewhere('ALTER TABLE later ADD COLUMN y TEXT');
    expect(describeSchema(db.schema, 'later').columns.map((c) => c.name)).toEqual(['x', 'y']);
    elsewhere('DROP TABLE later');
    expect(listTables(db.schema).map((t) => t.name)).toEqual(before);
    expectOneSentence(await refusal(() => resolveTable(db.schema, 'later')));
    expectOneSentence(await refusal(() => describeSchema(db.schema, 'later')));
  });

  it('hands out frozen values, so no caller can change what the next one gets', () => {
    const tables = listTables(db.schema);
    expect(Object.isFrozen(tables)).toBe(true);
    expect(Object.isFrozen(tables[0])).toBe(true);
    expect(Object.isFrozen(describeSchema(db.schema, 'plain').columns[0])).toBe(true);
  });
});

describe('counting and sampling a table in the server', () => {
  it('gives exactly what the query process gives', async () => {
    for (const [name, rows] of [
      ['plain', 5],
      ['plain', 50],
      ['keyed', 1],
    ] as const) {
      const peek = peekTable(db.schema, describeSchema(db.schema, name), {
        maxRows: rows,
        maxBytes: 1 << 20,
      });
      const count = await runner.run(`SELECT count(*) FROM "${name}"`, { expect: 'read' });
      const sample = await runner.run(`SELECT * FROM "${name}"`, { expect: 'read', maxRows: rows });
      expect(peek).toEqual({
        rowCount: count.rows[0]?.[0],
        sample: { columns: sample.columns, rows: sample.rows, truncated: sample.truncated },
      });
    }
    const first = peekTable(db.schema, describeSchema(db.schema, 'plain'), { maxRows: 3, maxBytes: 1 << 20 });
    expect(first?.sample.rows[0]).toEqual([
      1,
      '<b>first</b>',
      '9223372036854775807',
      { kind: 'blob', bytes: 3, hex: '0001ff' },
      1.5,
    ]);
    expect(first?.sample.rows[1]?.[1]).toMatchObject({ kind: 'text', chars: 5000 });
  });

  it('leaves views, virtual tables, generated columns and expression defaults to the query process', async () => {
    for (const name of ['doubled', 'docs', 'generated', 'defaulted']) {
      expect(
        peekTable(db.schema, describeSchema(db.schema, name), { maxRows: 5, maxBytes: 1 << 20 }),
      ).toBeUndefined();
    }
    // Still described in full, by the query process.
    expect(await describeTable(db.schema, runner, 'generated')).toMatchObject({
      rowCount: 2,
      sample: {
        rows: [
          [1, 2],
          [2, 4],
        ],
      },
    });
    expect(await describeTable(db.schema, runner, 'defaulted')).toMatchObject({
      rowCount: 1,
      sample: { rows: [[1, 7]] },
    });
    expect(await describeTable(db.schema, runner, 'doubled')).toMatchObject({ rowCount: 13 });
  });

  it('leaves a database above the size bound to the query process, and changes nothing', async () => {
    const bigFile = join(dir, 'big.db');
    const setup = new Database(bigFile);
    setup.exec('CREATE TABLE blobs(b BLOB)');
    const insert = setup.prepare('INSERT INTO blobs VALUES (zeroblob(?))');
    const chunk = 1024 * 1024;
    setup.transaction(() => {
      for (let i = 0; i <= PEEK_MAX_DATABASE_BYTES / chunk; i++) insert.run(chunk);
    })();
    setup.close();
    const before = sha256(bigFile);
    const big = openDatabase(bigFile, { write: false });
    const bigRunner = new QueryRunner(big);
    try {
      expect(
        peekTable(big.schema, describeSchema(big.schema, 'blobs'), { maxRows: 5, maxBytes: 1 << 20 }),
      ).toBeUndefined();
      const described = await describeTable(big.schema, bigRunner, 'blobs', { sampleRows: 1 });
      expect(described).toMatchObject({
        rowCount: PEEK_MAX_DATABASE_BYTES / chunk + 1,
        sample: { rows: [[{ kind: 'blob', bytes: chunk }]], truncated: true },
      });
    } finally {
      await bigRunner.close();
      big.close();
    }
    expect(sha256(bigFile)).toBe(before);
  });

  it('does not count a table whose b-tree a crafted file made point twice at one page', async () => {
    const dagFile = join(dir, 'dag.db');
    const setup = new Database(dagFile);
    setup.exec('CREATE TABLE d(id INTEGER PRIMARY KEY, body TEXT)');
    const insert = setup.prepare('INSERT INTO d(body) VALUES (?)');
    setup.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(100));
    })();
    const root = setup.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'd'").pluck().get() as number;
    const pageSize = setup.pragma('page_size', { simple: true }) as number;
    setup.close();
    // Every child pointer of the root (an interior page) now names its first child.
    const bytes = readFileSync(dagFile);
    const page = (root - 1) * pageSize;
    expect(bytes[page]).toBe(5);
    const cells = bytes.readUInt16BE(page + 3);
    const first = bytes.readUInt32BE(page + bytes.readUInt16BE(page + 12));
    for (let i = 0; i < cells; i++) bytes.writeUInt32BE(first, page + bytes.readUInt16BE(page + 12 + 2 * i));
    bytes.writeUInt32BE(first, page + 8);
    writeFileSync(dagFile, bytes);
    const before = sha256(dagFile);
    const dag = openDatabase(dagFile, { write: false });
    const dagRunner = new QueryRunner(dag);
    try {
      // SQLite itself counts the shared page again and again: with depth, without end.
      const counted = (await dagRunner.run('SELECT count(*) FROM d', { expect: 'read' })).rows[0]?.[0];
      expect(counted).toBeGreaterThan(2000);
      expect(
        peekTable(dag.schema, describeSchema(dag.schema, 'd'), { maxRows: 5, maxBytes: 1 << 20 }),
      ).toBeUndefined();
      // Still described, by the query process a deadline can stop.
      expect((await describeTable(dag.schema, dagRunner, 'd')).rowCount).toBe(counted);
    } finally {
      await dagRunner.close();
      dag.close();
    }
    expect(sha256(dagFile)).toBe(before);
  });

  it('never runs a CHECK constraint to vet a table', () => {
    const checkFile = join(dir, 'check.db');
    const setup = new Database(checkFile);
    setup.exec('CREATE TABLE guarded(a INTEGER, CHECK (a > 0))');
    // A row the constraint refuses: the quick check would report it if it ran the expression.
    setup.pragma('ignore_check_constraints = ON');
    setup.exec('INSERT INTO guarded VALUES (-1)');
    setup.close();
    const guarded = openDatabase(checkFile, { write: false });
    try {
      expect(
        peekTable(guarded.schema, describeSchema(guarded.schema, 'guarded'), {
          maxRows: 5,
          maxBytes: 1 << 20,
        }),
      ).toEqual({
        rowCount: 1,
        sample: { columns: ['a'], rows: [[-1]], truncated: false },
      });
    } finally {
      guarded.close();
    }
  });
});
