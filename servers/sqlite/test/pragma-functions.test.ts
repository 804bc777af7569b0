/**
 * The table-valued functions SQLite makes of its pragmas: only those of the read allowlist may be
 * named in a statement (pragma_database_list shows the file's absolute path, pragma_optimize runs
 * ANALYZE), whatever the spelling and wherever a table can stand; and a view or trigger already in
 * the file cannot reach them either (trusted_schema is off), so the path never shows. Each refusal
 * is one sentence and leaves the files as they were.
 */

import { describe, expect, it } from 'vitest';
import { classifyStatement } from '../src/sql/classify.js';
import { connect } from '../src/sql/connect.js';
import { checkPragmaFunction, readPragmaNames } from '../src/sql/pragma-policy.js';
import { expectOneSentence, refusal, useOpenFixture, witness } from './kit.js';
import { outside } from './protocol-kit.js';

const read = (sql: string) => classifyStatement(sql, { write: false });
const write = (sql: string) => classifyStatement(sql, { write: true });

describe('checkPragmaFunction', () => {
  it('lets every pragma function of the read allowlist through, and names that are not pragma functions', () => {
    const { bare, withArgument } = readPragmaNames();
    for (const name of [...bare, ...withArgument])
      expect(() => checkPragmaFunction(`pragma_${name}`)).not.toThrow();
    for (const name of ['orders', 'pragmas', 'my_pragma_x', 'pragma_list', 'PRAGMA'])
      expect(() => checkPragmaFunction(name)).not.toThrow();
  });

  it('refuses database_list with its reason, and every other pragma function, in any case', () => {
    for (const name of ['pragma_database_list', 'PRAGMA_DATABASE_LIST', 'Pragma_Database_List']) {
      const error = (() => {
        try {
          checkPragmaFunction(name);
        } catch (caught) {
          return caught;
        }
      })();
      expect(expectOneSentence(error)).toMatch(
        /^pragma_database_list is refused: it shows where the database file is/,
      );
    }
    for (const name of ['pragma_optimize', 'pragma_journal_mode', 'pragma_query_only', 'pragma_x', 'pragma_'])
      expect(() => checkPragmaFunction(name)).toThrow(
        /is not allowed here; of the pragma functions only those that read/,
      );
  });
});

describe('classifyStatement and pragma functions', () => {
  it('refuses them anywhere a table can stand, in read-only and write mode', () => {
    const statements = [
      'SELECT * FROM pragma_database_list',
      'select file from Pragma_Database_List',
      'SELECT * FROM main.pragma_database_list',
      'SELECT * FROM "pragma_database_list"',
      'SELECT * FROM `pragma_database_list`',
      'SELECT * FROM [pragma_database_list]',
      "SELECT * FROM 'pragma_database_list'",
      'SELECT * FROM t WHERE v IN (SELECT seq FROM pragma_database_list)',
      'WITH x AS (SELECT * FROM pragma_optimize) SELECT * FROM x',
      'EXPLAIN SELECT * FROM pragma_optimize',
    ];
    for (const sql of statements) {
      expect(() => read(sql), sql).toThrow(/pragma/);
      expect(() => write(sql), sql).toThrow(/pragma/);
    }
    expect(() => write('CREATE VIEW w AS SELECT file FROM pragma_database_list')).toThrow(
      /pragma_database_list/,
    );
    expect(() =>
      write('CREATE TRIGGER g AFTER INSERT ON t BEGIN SELECT * FROM pragma_optimize; END'),
    ).toThrow(/pragma_optimize/);
  });

  it('still runs the reading ones, and the same words in comments or as plain text', () => {
    expect(read("SELECT name FROM pragma_table_info('t')").kind).toBe('read');
    expect(read('SELECT * FROM t, pragma_index_list(t.name)').kind).toBe('read');
    expect(read('SELECT name FROM pragma_pragma_list').kind).toBe('read');
    expect(read('PRAGMA pragma_list').kind).toBe('read');
    expect(read('SELECT 1 -- pragma_database_list').kind).toBe('read');
    expect(read("SELECT 'see pragma_database_list'").kind).toBe('read');
    expect(() => read('PRAGMA database_list')).toThrow(/PRAGMA "database_list" is not allowed here/);
  });
});

describe('a file whose views reach pragma functions', () => {
  const opened = useOpenFixture({
    write: true,
    prepare: (fixture) =>
      outside(
        fixture,
        `CREATE VIEW where_am_i AS SELECT * FROM pragma_database_list;
         CREATE VIEW tuned AS SELECT * FROM pragma_optimize;`,
      ),
  });

  it('cannot read them through the query process, and the path never shows', async () => {
    const before = witness(opened.fixture);
    for (const view of ['where_am_i', 'tuned']) {
      const error = await refusal(() => opened.runner.run(`SELECT * FROM ${view}`, { expect: 'read' }));
      expect(expectOneSentence(error, opened.fixture)).toMatch(
        /unsafe use of virtual table "pragma_(database_list|optimize)"/,
      );
    }
    expect(witness(opened.fixture)).toEqual(before);
  });

  it('cannot read them through the server’s own connection either', () => {
    const own = connect(opened.fixture.main, false, 100);
    try {
      expect(own.pragma('trusted_schema', { simple: true })).toBe(0);
      expect(() => own.prepare('SELECT * FROM where_am_i').all()).toThrow(/unsafe use of virtual table/);
    } finally {
      own.close();
    }
  });
});
