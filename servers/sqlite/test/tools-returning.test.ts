/**
 * write_query with RETURNING, both eras. A write cannot be paged (a second page would run it
 * again), so what a user relies on is: the change count is whole however many rows came back; the
 * rows that fit one answer are shown, and the answer says how many more were left out and not to
 * run the statement again; the change itself is complete; a wholesale DELETE … RETURNING asks
 * first (declined: nothing changes); and another call running at the same moment cannot skew the
 * count. The time limit's side is in tools-time-limit.test.ts.
 */
import { textOf } from '@mcpkit/core/testing';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { witness } from './kit.js';
import {
  ERAS,
  fenced,
  structured,
  type ToolsWorld,
  type ToolsWorldOptions,
  toolsWorld,
} from './tools-kit.js';

type Write = {
  changed: boolean;
  kind: string;
  changes?: number;
  lastInsertRowid?: number;
  columns: string[];
  rows: unknown[][];
  truncated?: boolean;
  nextCursor?: string;
};

/** Inserts `n` rows into t (which holds ids 1-20), each returning its id and a name of `width` characters. */
function insertMany(n: number, width = 1): string {
  return (
    `INSERT INTO t(v, name) WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${n}) ` +
    `SELECT x, printf('%0${width}d', x) FROM c RETURNING id, name`
  );
}

/** A value read straight from the file, outside the server. */
function peek(file: string, sql: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).pluck().get();
  } finally {
    db.close();
  }
}

describe.each(ERAS)('write_query … RETURNING, %s era', (era) => {
  let w: ToolsWorld | undefined;
  const asked: string[] = [];
  afterEach(async () => {
    await w?.close();
    w = undefined;
    asked.length = 0;
  });

  async function open(options: ToolsWorldOptions = {}, answer?: 'accept' | 'decline') {
    const elicitation = answer
      ? (params: ElicitRequestParams) => {
          asked.push(params.message);
          return answer === 'accept'
            ? { action: 'accept' as const, content: { confirm: true } }
            : { action: 'decline' as const };
        }
      : undefined;
    w = await toolsWorld(era, { write: true, ...options, client: elicitation ? { elicitation } : {} });
    return w;
  }

  it('counts every changed row, shows the first page of them, and says how many were left out', async () => {
    const { call, fixture } = await open();
    const result = await call('write_query', { query: insertMany(1200) });
    const out = structured<Write>(result);
    expect(out).toMatchObject({ changed: true, changes: 1200, lastInsertRowid: 1220, truncated: true });
    expect(out.columns).toEqual(['id', 'name']);
    expect(out.rows).toHaveLength(500);
    expect(out.rows[0]).toEqual([21, '1']);
    expect(out.rows.at(-1)).toEqual([520, '500']);
    // No cursor: a second page would insert 1,200 rows more.
    expect(out.nextCursor).toBeUndefined();
    const text = textOf(result);
    expect(text).toMatch(
      /^Done: 1200 row\(s\) changed by the INSERT statement\.\nRows it returned, the first 500 of 1200:\n/,
    );
    expect(fenced(text)?.body.split('\n')).toHaveLength(501);
    expect(text).toContain('[The other 700 returned rows are not shown:');
    expect(text).toContain(
      'do not run it again to see them, read the changed rows with read_query instead.]',
    );
    // The change itself is whole, however the answer was cut.
    expect(peek(fixture.main, 'SELECT count(*) FROM t')).toBe(1220);
  });

  it('cuts at the output budget too, and the answer still fits it', async () => {
    const limit = 16 * 1024;
    const { call, fixture } = await open({ outputLimitBytes: limit });
    const result = await call('write_query', { query: insertMany(300, 200) });
    const out = structured<Write>(result);
    expect(out).toMatchObject({ changes: 300, truncated: true });
    const shown = out.rows.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(300);
    const text = textOf(result);
    expect(text).toContain(`Rows it returned, the first ${shown} of 300:`);
    expect(text).toContain(`[The other ${300 - shown} returned rows are not shown:`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
    expect(peek(fixture.main, 'SELECT count(*) FROM t')).toBe(320);
  });

  it('shows a small result whole, and an empty one as no change', async () => {
    const { call } = await open();
    const some = await call('write_query', {
      query: 'UPDATE t SET v = v * 10 WHERE id BETWEEN ? AND ? RETURNING id, v',
      params: [3, 5],
    });
    expect(structured<Write>(some)).toMatchObject({
      changes: 3,
      rows: [
        [3, 30],
        [4, 40],
        [5, 50],
      ],
    });
    expect(structured<Write>(some).truncated).toBeUndefined();
    expect(textOf(some)).toMatch(/^Done: 3 row\(s\) changed by the UPDATE statement\.\nRows it returned:\n/);
    expect(textOf(some)).not.toContain('not shown');
    const none = await call('write_query', { query: 'DELETE FROM t WHERE id > 1000 RETURNING id' });
    expect(structured<Write>(none)).toMatchObject({ changed: true, changes: 0, columns: ['id'], rows: [] });
    expect(textOf(none)).toMatch(/^Done: 0 row\(s\) changed by the DELETE statement\./);
  });

  it('asks before DELETE … RETURNING without WHERE: declined, nothing changes', async () => {
    const { call, fixture } = await open({}, 'decline');
    const before = witness(fixture);
    const result = await call('write_query', { query: 'DELETE FROM t RETURNING id' });
    expect(textOf(result)).toBe('Nothing was changed: the user declined the DELETE statement.');
    expect(structured<Write>(result)).toMatchObject({ changed: false, kind: 'destructive', rows: [] });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('DELETE FROM t RETURNING id');
    expect(witness(fixture)).toEqual(before);
  });

  it('asks before DELETE … RETURNING without WHERE: accepted, every deleted row comes back', async () => {
    const { call, fixture } = await open({}, 'accept');
    const result = await call('write_query', { query: 'DELETE FROM t RETURNING id' });
    const out = structured<Write>(result);
    expect(out).toMatchObject({ changed: true, kind: 'destructive', changes: 20 });
    expect(out.rows).toEqual(Array.from({ length: 20 }, (_, i) => [i + 1]));
    expect(asked).toHaveLength(1);
    expect(peek(fixture.main, 'SELECT count(*) FROM t')).toBe(0);
  });

  it('runs DELETE … RETURNING without WHERE with confirm: true where the client cannot ask', async () => {
    const { call, fixture } = await open();
    const refused = await call('write_query', { query: 'DELETE FROM t RETURNING id' });
    expect(refused.isError).toBe(true);
    expect(peek(fixture.main, 'SELECT count(*) FROM t')).toBe(20);
    const result = await call('write_query', { query: 'DELETE FROM t RETURNING id', confirm: true });
    expect(structured<Write>(result)).toMatchObject({ changed: true, changes: 20 });
    expect(structured<Write>(result).rows).toHaveLength(20);
  });

  it('keeps each count its own while other calls write at the same moment', async () => {
    const { call } = await open();
    const single = (n: number) =>
      call('write_query', { query: 'INSERT INTO notes(body) VALUES (?)', params: [`note ${n}`] });
    const [many, ...singles] = await Promise.all([
      call('write_query', { query: insertMany(700) }),
      single(1),
      single(2),
    ]);
    expect(structured<Write>(many)).toMatchObject({ changes: 700, truncated: true });
    for (const one of singles) expect(structured<Write>(one).changes).toBe(1);
  });
});
