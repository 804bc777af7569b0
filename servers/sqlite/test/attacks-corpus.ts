/**
 * The attack corpus: hostile SQL, names and paths, grouped by class, each with the refusal it must
 * meet. The SQL cases run through the query runner (classifier, query process, engine); the test
 * files check that every one fails in one sentence and leaves both database files and the folder
 * exactly as they were.
 */

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Expectation } from '../src/sql/query-protocol.js';
import type { Fixture } from './kit.js';

/** Where a VACUUM INTO outside the fixture folder would land (checked to stay absent). */
export const OUTSIDE = join(tmpdir(), `mcpkit-sqlite-exfil-${process.pid}.db`);

/** One hostile statement. */
export interface SqlAttack {
  group: string;
  sql: (f: Fixture) => string;
  /** The server's mode; write-mode attacks are sent as confirmed writes. */
  mode: 'read' | 'write';
  expect?: Expectation;
  message: RegExp;
}

const read = (
  group: string,
  sql: string | ((f: Fixture) => string),
  message: RegExp,
  expect?: Expectation,
) => ({
  group,
  sql: typeof sql === 'string' ? () => sql : sql,
  mode: 'read' as const,
  message,
  ...(expect ? { expect } : {}),
});

const write = (group: string, sql: string | ((f: Fixture) => string), message: RegExp) => ({
  group,
  sql: typeof sql === 'string' ? () => sql : sql,
  mode: 'write' as const,
  message,
});

const ONE = /one SQL statement per call/;
const RO = /open read-only/;
const ATTACH = /ATTACH is refused/;
const VACUUM = /VACUUM is refused/;
const PRAGMA = /is not allowed here/;
const EXT = /load_extension is refused/;
const PRAGMA_FN = /is not allowed here; of the pragma functions only those that read/;
const PATHS = /pragma_database_list is refused: it shows where the database file is/;

export const SQL_ATTACKS: SqlAttack[] = [
  // Several statements in one call.
  read('multi-statement', 'SELECT 1; DELETE FROM t', ONE),
  read('multi-statement', 'SELECT 1;DELETE FROM t', ONE),
  read('multi-statement', 'SELECT 1 -- c\n; DELETE FROM t', ONE),
  read('multi-statement', "SELECT ';' ; DELETE FROM t", ONE),
  read('multi-statement', 'SELECT 1 /* ; */ ; PRAGMA query_only=OFF', ONE),
  read('multi-statement', 'SELECT "a;b" FROM t; DROP TABLE t', ONE),
  read('multi-statement', (f) => `SELECT 1; ATTACH '${f.other}' AS o`, ONE),
  read('multi-statement', 'BEGIN; DELETE FROM t; COMMIT', ONE),
  write('multi-statement', "SELECT 1; PRAGMA temp_store_directory = '/tmp'", ONE),
  read('multi-statement', 'SELECT 1\0; DELETE FROM t', /NUL character/),
  write('multi-statement', 'DELETE FROM t\0 WHERE id = 1', /NUL character/),
  // Writes dressed as reads.
  read('disguised write', 'WITH x AS (SELECT 1) DELETE FROM t', RO),
  read('disguised write', 'WITH x AS (SELECT 1) UPDATE t SET v = 0', RO),
  read('disguised write', 'WITH x AS (SELECT 1) INSERT INTO t(v) VALUES (1)', RO),
  read('disguised write', 'WITH replace AS (SELECT 1) DELETE FROM t', RO),
  read('disguised write', 'WITH RECURSIVE x(n) AS (SELECT 1) REPLACE INTO t(v) SELECT n FROM x', RO),
  read('disguised write', '/* SELECT */ DELETE FROM t', RO),
  read('disguised write', '-- SELECT\nDELETE FROM t', RO),
  read('disguised write', '\f\f DELETE FROM t', RO),
  read('disguised write', 'DeLeTe FROM t', RO),
  read('disguised write', 'INSERT INTO t(v) SELECT v FROM t', RO),
  read('disguised write', 'CREATE TEMP TABLE z AS SELECT * FROM t', RO),
  read('disguised write', 'DROP TABLE t', RO),
  read('disguised write', 'ALTER TABLE t ADD COLUMN z', RO),
  read('disguised write', 'EXPLAIN DELETE FROM t', RO),
  read(
    'disguised write',
    "SELECT * FROM t INTO OUTFILE '/tmp/x'",
    /SQLite refused the statement: near "INTO"/,
  ),
  read('disguised write', 'SAVEPOINT a', /SAVEPOINT is refused/),
  write('disguised write', 'BEGIN IMMEDIATE', /BEGIN is refused/),
  read('disguised write', 'REINDEX', RO),
  read('disguised write', 'ANALYZE', RO),
  // Reaching another database file.
  read('attach', (f) => `ATTACH DATABASE '${f.other}' AS o`, ATTACH),
  read('attach', (f) => `/**/ATTACH '${f.other}' AS o`, ATTACH),
  read('attach', (f) => `attach '${f.dir}/new.db' as n`, ATTACH),
  read('attach', (f) => `ATTACH 'file:${f.dir}/x.db?mode=rwc' AS b`, ATTACH),
  read('attach', 'DETACH o', /DETACH is refused/),
  read('attach', 'SELECT * FROM o.secrets', /SQLite refused the statement: no such table: o\.secrets/),
  write('attach', (f) => `ATTACH '${f.other}' AS o`, ATTACH),
  write('attach', (f) => `  ATTACH '${f.dir}/created.db' AS c`, ATTACH),
  // Writing a copy anywhere.
  read('vacuum', (f) => `VACUUM INTO '${f.dir}/exfil.db'`, VACUUM),
  read('vacuum', `VACUUM INTO '${OUTSIDE}'`, VACUUM),
  read('vacuum', (f) => `vacuum main into '${f.dir}/x.db'`, VACUUM),
  read('vacuum', 'VACUUM', VACUUM),
  write('vacuum', (f) => `VACUUM INTO '${f.dir}/exfil.db'`, VACUUM),
  write('vacuum', 'VACUUM', VACUUM),
  // Switching the engine's guards.
  read('pragma', 'PRAGMA query_only=OFF', PRAGMA),
  read('pragma', 'PRAGMA journal_mode=OFF', PRAGMA),
  read('pragma', 'PRAGMA user_version=1', /cannot be set: the database is open read-only/),
  read('pragma', 'PRAGMA writable_schema=ON', /writable_schema is refused/),
  read('pragma', 'PRAGMA main.query_only = 0', PRAGMA),
  read('pragma', 'PRAGMA "query_only"(0)', PRAGMA),
  read('pragma', (f) => `PRAGMA temp_store_directory='${f.dir}'`, PRAGMA),
  read('pragma', 'PRAGMA hard_heap_limit=1000', PRAGMA),
  read('pragma', 'PRAGMA foreign_keys=OFF', PRAGMA),
  read('pragma', 'PRAGMA o.table_info(t)', /only name the main database/),
  read('pragma', 'PRAGMA journal_mode', PRAGMA),
  read('pragma', 'PRAGMA wal_checkpoint(TRUNCATE)', PRAGMA),
  read('pragma', 'PRAGMA optimize', PRAGMA),
  read('pragma', 'SELECT * FROM pragma_query_only(0)', PRAGMA_FN),
  read('pragma', "SELECT * FROM pragma_journal_mode('off')", PRAGMA_FN),
  // Pragma functions outside the read allowlist, in any spelling, anywhere a table can be.
  read('pragma', 'PRAGMA database_list', PRAGMA),
  read('pragma', 'SELECT * FROM pragma_database_list', PATHS),
  read('pragma', 'SELECT file FROM PRAGMA_DATABASE_LIST', PATHS),
  read('pragma', 'SELECT * FROM main.pragma_database_list', PATHS),
  read('pragma', 'SELECT * FROM "pragma_database_list"', PATHS),
  read('pragma', "SELECT * FROM 'pragma_database_list'", PATHS),
  read('pragma', 'SELECT * FROM [pragma_database_list]', PATHS),
  read('pragma', 'SELECT (SELECT file FROM pragma_database_list) AS f', PATHS),
  read('pragma', 'SELECT t.v, d.file FROM t JOIN pragma_database_list AS d', PATHS),
  read('pragma', 'WITH d AS (SELECT * FROM pragma_database_list) SELECT * FROM d', PATHS),
  read('pragma', 'EXPLAIN QUERY PLAN SELECT * FROM pragma_database_list', PATHS),
  read('pragma', 'SELECT * FROM pragma_optimize', PRAGMA_FN),
  read('pragma', 'SELECT * FROM pragma_journal_mode', PRAGMA_FN),
  read('pragma', "SELECT * FROM pragma_temp_store_directory('/tmp')", PRAGMA_FN),
  write('pragma', 'SELECT * FROM pragma_optimize', PRAGMA_FN),
  write('pragma', 'SELECT * FROM pragma_optimize(0x10002)', PRAGMA_FN),
  write('pragma', 'INSERT INTO t(name) SELECT file FROM pragma_database_list', PATHS),
  write('pragma', 'CREATE VIEW where_am_i AS SELECT * FROM pragma_database_list', PATHS),
  write('pragma', 'PRAGMA database_list', PRAGMA),
  read('pragma', 'PRAGMA table_info(t) ; PRAGMA query_only=0', ONE),
  write('pragma', 'PRAGMA writable_schema=ON', /writable_schema is refused/),
  write('pragma', 'PRAGMA writable_schema = 1', /writable_schema is refused/),
  write('pragma', 'PRAGMA journal_mode=OFF', PRAGMA),
  write('pragma', 'PRAGMA synchronous=OFF', PRAGMA),
  // Native code.
  read('load_extension', "SELECT load_extension('/tmp/x.so')", EXT),
  read('load_extension', "SELECT LOAD_EXTENSION('x')", EXT),
  read('load_extension', 'SELECT "load_extension"(\'x\')', EXT),
  read('load_extension', "SELECT [load_extension]('x')", EXT),
  write('load_extension', "INSERT INTO t(name) VALUES (load_extension('x'))", EXT),
  // Values too large to build.
  read('huge value', 'SELECT zeroblob(600000000)', /SQLite refused the statement: string or blob too big/),
  read('huge value', 'SELECT randomblob(600000000)', /SQLite refused the statement: string or blob too big/),
];

/** Table names aimed at the schema look-ups. */
export const NAME_ATTACKS: string[] = [
  't) ; DROP TABLE t; --',
  "t' UNION SELECT sql FROM sqlite_master--",
  '"t""x',
  't"; DROP TABLE t; --',
  't]; DROP TABLE t',
  'sqlite_master',
  'main.t',
  '`t`',
  't\0x',
  '*',
];

/** Column names aimed at the column look-up of table `t`. */
export const COLUMN_ATTACKS: string[] = [
  'name FROM t; DROP TABLE t--',
  '*',
  "v' OR '1'='1",
  'v"; DROP TABLE t; --',
];
