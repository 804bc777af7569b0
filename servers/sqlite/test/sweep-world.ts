/**
 * The SQLite sweep's batteries, for the shared test database (kit.ts: customers, orders, t, notes,
 * files, `odd"name`, the views big_orders and forever): statements that are wrong in every way
 * SQLite can say so (syntax, unknown tables and columns, constraints, limits, runtime errors, the
 * wrong kind of statement for the tool), odd bound values, table names, export paths and cursors,
 * and each tool's base arguments.
 */
import { join } from 'node:path';
import { ODD_STRINGS, type OddInputBattery, type OddInputSchema, oddCursors } from '@mcpkit/core/testing';

/** Statements that fail (or should be refused) in each way SQLite or the server can say so. */
export const ODD_SQL: readonly string[] = [
  'SELECT * FROM t',
  'SELECT',
  'SELEC 1',
  'SELECT 1; SELECT 2',
  'SELECT * FROM missing',
  'SELECT nope FROM t',
  'SELECT ?',
  'SELECT :a, ?',
  'SELECT * FROM "odd""name"',
  'SELECT * FROM forever',
  'SELECT * FROM sqlite_master',
  "SELECT * FROM pragma_table_info('t')",
  'SELECT 1 UNION SELECT 1, 2',
  'SELECT 1/0, abs(-9223372036854775808)',
  "SELECT printf('%.*c', 2147483647, 'x')",
  'SELECT zeroblob(2000000000)',
  'SELECT randomblob(100000000)',
  "SELECT json('{')",
  "SELECT * FROM t WHERE name REGEXP 'x'",
  'SELECT substr()',
  "SELECT RAISE(ABORT, 'x')",
  "SELECT load_extension('/tmp/x')",
  "SELECT readfile('/etc/passwd')",
  `SELECT ${'-'.repeat(2000)}1`,
  `SELECT ${'('.repeat(3000)}1${')'.repeat(3000)}`,
  `SELECT ${Array.from({ length: 3000 }, (_, i) => `${i}`).join(',')}`,
  'SELECT * FROM t LIMIT -1 OFFSET 99999999999',
  "SELECT char(0), 'a\u0000b', x'00ff'",
  'EXPLAIN SELECT 1',
  'PRAGMA table_info(t)',
  'PRAGMA writable_schema = 1',
  'PRAGMA journal_mode = OFF',
  "ATTACH DATABASE 'other.db' AS o",
  'DETACH main',
  "VACUUM INTO '/tmp/x.db'",
  'BEGIN',
  'COMMIT',
  'SAVEPOINT x',
  'INSERT INTO t(v, name) VALUES (1, ?)',
  "INSERT INTO customers(name) VALUES ('Ada')",
  'INSERT INTO customers(name) VALUES (NULL)',
  'INSERT INTO orders(customer_id) VALUES (999)',
  'UPDATE t SET v = v + 1 WHERE id = 1',
  'UPDATE t SET v = 1',
  'DELETE FROM t',
  'DROP TABLE t',
  'DROP TABLE missing',
  'ALTER TABLE t RENAME TO t2',
  'ALTER TABLE t ADD COLUMN id INTEGER',
  'CREATE TABLE t(x)',
  'CREATE TABLE IF NOT EXISTS t(x)',
  'CREATE TABLE new_one(a INTEGER PRIMARY KEY, b TEXT)',
  'CREATE TABLE bad(',
  'CREATE TABLE copy AS SELECT * FROM t',
  'CREATE TEMP TABLE tmp(a)',
  'CREATE VIEW v AS SELECT 1',
  "CREATE TRIGGER trg AFTER INSERT ON t BEGIN SELECT RAISE(ABORT, 'no'); END",
  'CREATE INDEX i ON t(nope)',
  'CREATE VIRTUAL TABLE vt USING fts5(a)',
  'REINDEX',
  'ANALYZE',
  'VACUUM',
  'WITH x AS (SELECT 1) DELETE FROM t',
  'INSERT INTO t(v) SELECT v FROM t RETURNING *',
  '-- only a comment',
  '/* unterminated',
  "SELECT 'unterminated",
  ...ODD_STRINGS,
];

/** Bound values of every odd shape: too few, too many, wrong names, huge, odd types. */
export const ODD_PARAMS: readonly unknown[] = [
  [],
  [null],
  [1, 2, 3],
  ['x'.repeat(10_000)],
  [1e308, -0, Number.MAX_SAFE_INTEGER, 2 ** 63],
  [true, false],
  { a: 1 },
  { ':a': 1, a: 2 },
  { '@a': 1, $a: 2 },
  { 'no such': 1 },
  { x: 'y'.repeat(10_000) },
  [[1]],
  [{ a: 1 }],
  'text',
  7,
  null,
];

/** Table names that name nothing, a system table, or look like SQL. */
export const ODD_TABLES: readonly string[] = [
  't',
  'missing',
  'odd"name',
  '"t"',
  '[t]',
  '`t`',
  'sqlite_master',
  'sqlite_schema',
  'sqlite_sequence',
  'sqlite_stat1',
  'pragma_table_info',
  'big_orders',
  'forever',
  'main.t',
  'temp.t',
  't; DROP TABLE t',
  'T',
  ...ODD_STRINGS,
];

/** Export paths: missing folders, through a file, outside, the folder itself, odd names. */
export function oddExportPaths(exportDir: string, outside: string): string[] {
  return [
    'out.csv',
    'sub/out.csv',
    'out.csv/x',
    '.',
    '..',
    '../outside/keep.txt',
    join(outside, 'keep.txt'),
    join(exportDir, 'abs.csv'),
    'n'.repeat(300),
    `${'d/'.repeat(2100)}x`,
    '~/x.csv',
    '/dev/null',
    '/proc/self/environ',
    ...ODD_STRINGS,
  ];
}

/** The sweep's battery for SQLite tools: each argument by its name. */
export function sqliteBattery(
  exportDir: string,
  outside: string,
  cursors: readonly string[],
): OddInputBattery {
  return (name: string, schema: OddInputSchema) => {
    if (name === 'params') return [...ODD_PARAMS];
    if (schema.type !== 'string' || schema.enum) return undefined;
    if (name === 'query') return [...ODD_SQL];
    if (name === 'table_name') return [...ODD_TABLES];
    if (name === 'path') return oddExportPaths(exportDir, outside);
    if (name === 'cursor') return oddCursors(cursors);
    if (name === 'term') return ['%', '_', '\\', '*', "'", ...ODD_STRINGS];
    return undefined;
  };
}

/** Each tool's arguments when nothing is odd: the case every varied argument starts from. */
export const SQLITE_BASE: Record<string, Record<string, unknown>> = {
  read_query: { query: 'SELECT * FROM t' },
  write_query: { query: 'UPDATE t SET v = 5 WHERE id = 1' },
  create_table: { query: 'CREATE TABLE sweep(a INTEGER PRIMARY KEY, b TEXT)' },
  list_tables: {},
  describe_table: { table_name: 'orders' },
  append_insight: { insight: 'Orders grow.' },
  explain_query: { query: 'SELECT * FROM orders' },
  search_schema: { term: 'id' },
  export_query: { query: 'SELECT * FROM t', path: 'out.csv' },
  ask_database: { question: 'How many rows has t?' },
};

// Each odd set of values bound to a statement that has placeholders, positional and named.
const bound = (query: string, named: string) =>
  ODD_PARAMS.flatMap((params) => [
    { query, params },
    { query: named, params },
  ]);

/** Wrong-but-valid combinations the one-argument-at-a-time battery does not make. */
export const SQLITE_EXTRAS: Record<string, Record<string, unknown>[]> = {
  read_query: [
    ...bound('SELECT * FROM t WHERE v > ? AND name = ?', 'SELECT * FROM t WHERE v > :a AND name = @b'),
    { query: 'SELECT * FROM t WHERE id = :id', params: [1] },
    { query: 'SELECT * FROM t WHERE id = ?', params: { id: 1 } },
    { query: 'SELECT ?1, ?2, ?1', params: [1] },
    { query: 'SELECT * FROM t', max_rows: 1, cursor: 'garbage' },
  ],
  explain_query: bound('SELECT * FROM t WHERE v > ?', 'SELECT * FROM t WHERE v > :a'),
  export_query: [
    ...bound('SELECT * FROM t WHERE v > ?', 'SELECT * FROM t WHERE v > :a'),
    { query: 'SELECT * FROM t', format: 'json', path: 'dup.csv' },
    { query: 'SELECT * FROM t', format: 'json' },
    { query: 'SELECT * FROM forever' },
    { query: 'SELECT * FROM t', path: 'out.csv', cursor: 'garbage' },
    { query: 'DELETE FROM t', path: 'out.csv' },
  ],
  describe_table: [
    { table_name: 'forever', sample_rows: 50 },
    { table_name: 'files', sample_rows: 50 },
  ],
  write_query: [
    ...bound('UPDATE t SET name = ? WHERE id = ?', 'INSERT INTO t(v, name) VALUES (:v, $name)'),
    { query: 'SELECT * FROM t' },
    { query: 'INSERT INTO t(v) VALUES (?)', params: [] },
    { query: 'INSERT INTO t(v) VALUES (:v)', params: { w: 1 } },
  ],
};
