/**
 * write_query and create_table, both eras: plain writes run at once with values bound; DDL, DROP
 * and UPDATE/DELETE without WHERE ask the user (accept runs it, decline changes nothing), and a
 * client that cannot ask needs confirm: true. Subscribers are told of every change. In read-only
 * mode the write tools are hidden, and the statement is refused even when the tool is run directly.
 */

import { textOf } from '@mcpkit/core/testing';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteCall } from '../src/context.js';
import { connect } from '../src/sql/connect.js';
import { writeQuery } from '../src/tools/write-query.js';
import { expectOneSentence, refusal, sha256, witness } from './kit.js';
import { ERAS, structured, type ToolsWorld, toolsWorld } from './tools-kit.js';

type Write = {
  changed: boolean;
  kind: string;
  verb: string;
  changes?: number;
  lastInsertRowid?: number;
  rows: unknown[][];
};

/** Rows of `sql` read straight from the file, outside the server. */
function peek(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe.each(ERAS)('write tools, %s era', (era) => {
  let w: ToolsWorld | undefined;
  const asked: string[] = [];
  const events: string[] = [];
  afterEach(async () => {
    await w?.close();
    w = undefined;
    asked.length = 0;
    events.length = 0;
  });

  async function open(answer?: 'accept' | 'decline') {
    const elicitation = answer
      ? (params: ElicitRequestParams) => {
          asked.push(params.message);
          return answer === 'accept'
            ? { action: 'accept' as const, content: { confirm: true } }
            : { action: 'decline' as const };
        }
      : undefined;
    w = await toolsWorld(era, { write: true, client: elicitation ? { elicitation } : {} });
    for (const kind of ['data', 'schema'])
      w.app.context.changes.addEventListener(kind, () => events.push(kind));
    return w;
  }

  it('runs a write with a WHERE at once, values bound, and tells subscribers', async () => {
    const { call, fixture } = await open('accept');
    const insert = structured<Write>(
      await call('write_query', {
        query: 'INSERT INTO customers(name) VALUES (?)',
        params: ["Dana'); DROP TABLE t;--"],
      }),
    );
    expect(insert).toMatchObject({
      changed: true,
      kind: 'write',
      verb: 'INSERT',
      changes: 1,
      lastInsertRowid: 4,
    });
    const update = await call('write_query', {
      query: 'UPDATE t SET v = :v WHERE id <= :id',
      params: { v: 0, ':id': 3 },
    });
    expect(structured<Write>(update).changes).toBe(3);
    // SQLite keeps the insert's rowid on the connection: an UPDATE does not report it as its own.
    expect(structured<Write>(update).lastInsertRowid).toBeUndefined();
    expect(textOf(update)).toBe('Done: 3 row(s) changed by the UPDATE statement.');
    expect(asked).toEqual([]);
    expect(events).toEqual(['data', 'data']);
    expect(peek(fixture.main, 'SELECT name FROM customers WHERE id = 4')).toEqual([
      { name: "Dana'); DROP TABLE t;--" },
    ]);
    expect(peek(fixture.main, 'SELECT count(*) AS n FROM t')).toEqual([{ n: 20 }]);
    const returning = structured<Write>(
      await call('write_query', { query: 'DELETE FROM t WHERE id > ? RETURNING id', params: [18] }),
    );
    expect(returning.rows).toEqual([[19], [20]]);
    expect(returning.lastInsertRowid).toBeUndefined();
  });

  it('asks before a schema change; accepted, create_table makes the table', async () => {
    const { call, fixture } = await open('accept');
    const result = await call('create_table', {
      query: 'CREATE TABLE memo(id INTEGER PRIMARY KEY, body TEXT)',
    });
    expect(structured<Write>(result)).toMatchObject({ changed: true, kind: 'ddl', verb: 'CREATE' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Run this CREATE statement\? It changes the schema\.\n\nCREATE TABLE memo/);
    expect(events).toEqual(['schema']);
    expect(peek(fixture.main, "SELECT name FROM sqlite_schema WHERE name = 'memo'")).toEqual([
      { name: 'memo' },
    ]);
  });

  it('changes nothing when the user declines a DROP or a DELETE without WHERE', async () => {
    const { call, fixture } = await open('decline');
    const before = witness(fixture);
    const drop = await call('write_query', { query: 'DROP TABLE t' });
    expect(drop.isError).toBeFalsy();
    expect(textOf(drop)).toBe('Nothing was changed: the user declined the DROP statement.');
    expect(structured<Write>(drop).changed).toBe(false);
    const wipe = await call('write_query', { query: 'WITH x AS (SELECT 1) DELETE FROM t' });
    expect(textOf(wipe)).toBe('Nothing was changed: the user declined the WITH statement.');
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatch(/changes or deletes every row of a table, since it has no WHERE clause/);
    expect(witness(fixture)).toEqual(before);
    expect(events).toEqual([]);
  });

  it('without elicitation, needs confirm: true, and runs with it', async () => {
    const { call, fixture } = await open();
    const before = sha256(fixture.main);
    const refused = await call('write_query', { query: 'DELETE FROM t' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'This DELETE statement changes or deletes every row of a table, since it has no WHERE clause, so it runs only ' +
        'with the user\'s consent: this client cannot ask, so call again with "confirm": true once the user has agreed.',
    );
    expect(sha256(fixture.main)).toBe(before);
    const done = structured<Write>(await call('write_query', { query: 'DELETE FROM t', confirm: true }));
    expect(done).toMatchObject({ changed: true, kind: 'destructive', changes: 20 });
    expect(peek(fixture.main, 'SELECT count(*) AS n FROM t')).toEqual([{ n: 0 }]);
    const table = await call('create_table', { query: 'CREATE TABLE x(a)', confirm: true });
    expect(structured<Write>(table).changed).toBe(true);
    expect(events).toEqual(['data', 'schema']);
  });

  it('refuses what each tool does not run, with one sentence and nothing changed', async () => {
    const { call, fixture } = await open();
    const before = witness(fixture);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'write_query',
        { query: 'SELECT * FROM t' },
        /^This statement only reads; run it with read_query instead\.$/,
      ],
      [
        'create_table',
        { query: 'CREATE INDEX i ON t(v)', confirm: true },
        /^create_table runs only a CREATE TABLE/,
      ],
      [
        'create_table',
        { query: 'CREATE TABLE a(x); DROP TABLE t', confirm: true },
        /^Send one SQL statement per call/,
      ],
      ['write_query', { query: "ATTACH 'x.db' AS x", confirm: true }, /^ATTACH is refused/],
      ['write_query', { query: "VACUUM INTO 'copy.db'", confirm: true }, /^VACUUM is refused/],
      [
        'write_query',
        { query: 'INSERT INTO nope VALUES (?)', params: [1] },
        /^SQLite refused the statement: no such table: nope\.$/,
      ],
      [
        'write_query',
        { query: 'INSERT INTO t(v) VALUES (?)', params: [1, 2] },
        /^SQLite refused the statement: Too many/,
      ],
    ];
    for (const [tool, args, sentence] of cases) {
      const result = await call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(sentence);
    }
    expect(witness(fixture)).toEqual(before);
  });
});

describe.each(ERAS)('read-only mode, %s era', (era) => {
  it('hides the write tools, and the statement is refused even when the tool runs directly', async () => {
    const w = await toolsWorld(era);
    try {
      const before = witness(w.fixture);
      const names = (await w.session.client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'read_query',
          'list_tables',
          'describe_table',
          'append_insight',
          'export_query',
        ]),
      );
      expect(names).not.toContain('write_query');
      expect(names).not.toContain('create_table');
      const hidden = await w.call('write_query', { query: 'DELETE FROM t WHERE id = 1' }).then(
        (result) => textOf(result),
        (error: Error) => error.message,
      );
      expect(hidden).toMatch(/write_query/);
      // The tool's own code, given the read-only server's context, refuses as well.
      const call = {
        context: w.app.context,
        flow: { abilities: { elicitForm: false } },
        signal: new AbortController().signal,
      } as unknown as SqliteCall;
      const error = await refusal(() =>
        writeQuery.run({ query: 'DELETE FROM t WHERE id = 1', confirm: true }, call),
      );
      expect(expectOneSentence(error, w.fixture)).toBe(
        'The database is open read-only, so DELETE statements cannot run.',
      );
      const run = await refusal(() =>
        w.app.context.runner.run('DELETE FROM t WHERE id = 1', { expect: 'write', confirmed: true }),
      );
      expect(expectOneSentence(run)).toMatch(/read-only/);
      // Past every check, SQLite itself refuses: the query process of a read-only server opens the
      // file exactly like this, with the readonly flag.
      const engine = connect(w.app.context.database.path, false, 100);
      try {
        expect(() => engine.prepare('DELETE FROM t WHERE id = 1').run()).toThrow(/readonly database/);
      } finally {
        engine.close();
      }
      expect(witness(w.fixture)).toEqual(before);
    } finally {
      await w.close();
    }
  });
});
