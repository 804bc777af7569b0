import { describe, expect, it } from 'vitest';
import { classifyStatement, MAX_SQL_CHARS } from '../src/sql/classify.js';
import { firstStatementEnd, tokenize } from '../src/sql/sql-tokens.js';

const read = (sql: string) => classifyStatement(sql, { write: false });
const write = (sql: string) => classifyStatement(sql, { write: true });

describe('tokenize', () => {
  it('drops comments and whitespace and keeps literals whole', () => {
    const { tokens } = tokenize('/* a */ SELECT -- b\n \'x;y\', "c""d", [e f], `g`, :p, ?2 FROM t');
    expect(tokens.map((t) => [t.kind, t.value])).toEqual([
      ['word', 'SELECT'],
      ['string', 'x;y'],
      ['punct', ','],
      ['quoted', 'c"d'],
      ['punct', ','],
      ['quoted', 'e f'],
      ['punct', ','],
      ['quoted', 'g'],
      ['punct', ','],
      ['param', ':p'],
      ['punct', ','],
      ['param', '?2'],
      ['word', 'FROM'],
      ['word', 'T'],
    ]);
  });

  it('treats form feed, vertical tab, NBSP and BOM as whitespace', () => {
    expect(tokenize('\f\v\u00a0\ufeffSELECT').tokens.map((t) => t.value)).toEqual(['SELECT']);
  });

  it('flags an unterminated string and lets an unclosed block comment run to the end', () => {
    expect(tokenize("SELECT 'abc").unterminated).toBe(true);
    expect(tokenize('SELECT 1 /* never closed ; DELETE').tokens).toHaveLength(2);
  });

  it('ends a trigger at "; END ;", not at the semicolons inside its body or a CASE … END', () => {
    const sql =
      'CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET v = CASE WHEN 1 THEN 2 END; DELETE FROM u; END; SELECT 1';
    const { tokens } = tokenize(sql);
    const end = firstStatementEnd(tokens, 0);
    expect(tokens[end - 1]?.value).toBe('END');
    expect(tokens[end + 1]?.value).toBe('SELECT');
  });
});

describe('classifyStatement', () => {
  it.each([
    ['SELECT * FROM t', 'read', 'SELECT'],
    ['values (1), (2)', 'read', 'VALUES'],
    [
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5) SELECT * FROM c',
      'read',
      'WITH',
    ],
    [
      'WITH a AS NOT MATERIALIZED (SELECT 1), b(y) AS MATERIALIZED (SELECT 2) SELECT * FROM a, b',
      'read',
      'WITH',
    ],
    ['PRAGMA table_info(t)', 'read', 'PRAGMA'],
    ['PRAGMA main.index_list = "t"', 'read', 'PRAGMA'],
    ['PRAGMA user_version', 'read', 'PRAGMA'],
    ['pragma integrity_check', 'read', 'PRAGMA'],
  ])('reads %j', (sql, kind, verb) => {
    expect(read(sql)).toMatchObject({ kind, verb, explain: false });
  });

  it.each([
    ['INSERT INTO t(v) VALUES (1)', 'write'],
    ['REPLACE INTO t(id, v) VALUES (1, 2)', 'write'],
    ['UPDATE t SET v = 1 WHERE id = 2', 'write'],
    ['DELETE FROM t WHERE id IN (SELECT id FROM t WHERE v > 3)', 'write'],
    ['UPDATE t SET v = (SELECT max(v) FROM t WHERE id < 3)', 'destructive'],
    ['DELETE FROM t', 'destructive'],
    ['delete from t returning *', 'destructive'],
    ['WITH m AS (SELECT 1) DELETE FROM t', 'destructive'],
    ['WITH m AS (SELECT 1) DELETE FROM t WHERE id = 1', 'write'],
    ['WITH replace AS (SELECT 1) DELETE FROM t', 'destructive'],
    ['WITH m AS (SELECT 1) INSERT INTO t(v) SELECT * FROM m', 'write'],
    ['CREATE TABLE z(x)', 'ddl'],
    ['CREATE INDEX zi ON t(v)', 'ddl'],
    ['ALTER TABLE t RENAME TO t2', 'ddl'],
    ['ALTER TABLE t DROP COLUMN name', 'destructive'],
    ['DROP TABLE t', 'destructive'],
    ['DROP VIEW IF EXISTS big_orders', 'destructive'],
    ['REINDEX', 'ddl'],
    ['ANALYZE', 'write'],
    ['PRAGMA user_version = 7', 'write'],
    ['CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; INSERT INTO u VALUES (1); END;', 'ddl'],
  ])('in write mode classifies %j as %s', (sql, kind) => {
    expect(write(sql).kind).toBe(kind);
  });

  it('refuses every write in read-only mode before anything is prepared', () => {
    for (const sql of [
      'INSERT INTO t VALUES (1)',
      'CREATE TABLE z(x)',
      'DROP TABLE t',
      'REINDEX',
      'ANALYZE',
    ]) {
      expect(() => read(sql)).toThrow(/open read-only/);
    }
  });

  it('skips leading comments and every kind of whitespace to find the verb', () => {
    expect(write('\f\t\r\n/* c */ -- d\n  DeLeTe FROM t').verb).toBe('DELETE');
    expect(read('/**/SELECT 1').verb).toBe('SELECT');
  });

  it('returns the statement alone: no comments around it, no closing semicolon', () => {
    expect(read('  -- hi\n SELECT 1 ; -- bye').text).toBe('SELECT 1');
    expect(read(';; SELECT 2;;').text).toBe('SELECT 2');
  });

  it('keeps semicolons inside literals, identifiers and comments in the one statement', () => {
    expect(read(`SELECT ';', "a;b", [c;d] FROM t /* ; DROP TABLE t */`).kind).toBe('read');
  });

  it('reads EXPLAIN and EXPLAIN QUERY PLAN as reads of the explained statement', () => {
    expect(read('EXPLAIN QUERY PLAN SELECT * FROM t')).toMatchObject({
      kind: 'read',
      explain: true,
      explained: 'read',
    });
    expect(write('EXPLAIN DELETE FROM t')).toMatchObject({ kind: 'read', explained: 'destructive' });
    expect(() => read('EXPLAIN DELETE FROM t')).toThrow(/read-only/);
    expect(() => read('EXPLAIN EXPLAIN SELECT 1')).toThrow(/nested/);
    expect(() => read('EXPLAIN QUERY PLAN')).toThrow(/needs a statement/);
  });

  it('refuses empty text, text that is too long, and words that start no statement', () => {
    expect(() => read('  -- nothing\n')).toThrow(/no statement/);
    expect(() => read(`SELECT '${'x'.repeat(MAX_SQL_CHARS)}'`)).toThrow(/longer than/);
    expect(() => read('SHOW TABLES')).toThrow(/"SHOW" does not start a statement/);
    expect(() => read('(SELECT 1)')).toThrow(/does not start a statement/);
  });

  it('refuses a WITH clause it cannot read by its grammar', () => {
    expect(() => read('WITH SELECT 1')).toThrow(/WITH clause/);
    expect(() => read('WITH a AS SELECT 1')).toThrow(/WITH clause/);
    expect(() => read('WITH a AS (SELECT 1) PRAGMA user_version')).toThrow(/After its WITH clause/);
  });
});
