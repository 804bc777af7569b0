/**
 * The schema tools through the protocol, both eras: list_tables, describe_table, search_schema,
 * explain_query, and append_insight (offered in read-only mode: it changes no database). Hostile
 * table names are looked up as values and not found; nothing changes the database file.
 */
import { textOf } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_ATTACKS } from './attacks-corpus.js';
import { FIXTURE_TABLES } from './kit.js';
import { ERAS, fenced, structured, type ToolsWorld, toolsWorld, useUnchangedFixture } from './tools-kit.js';

const unchanged = useUnchangedFixture();

describe.each(ERAS)('schema tools, %s era', (era) => {
  let w: ToolsWorld;
  beforeAll(async () => {
    w = await toolsWorld(era, { fixture: unchanged.fixture });
  });
  afterAll(() => w.close());

  it('list_tables lists tables and views by stored name, fenced, without sqlite_ tables', async () => {
    const result = await w.call('list_tables');
    const { tables } = structured<{ tables: { name: string; type: string }[] }>(result);
    expect(tables).toEqual(FIXTURE_TABLES);
    expect(fenced(textOf(result))?.body).toContain('["odd\\"name","table"]');
  });

  it('describe_table shows columns, indexes, foreign keys, the row count and sample rows', async () => {
    const result = await w.call('describe_table', { table_name: 'ORDERS', sample_rows: 2 });
    const d = structured<Record<string, unknown>>(result);
    expect(d).toMatchObject({
      name: 'orders',
      type: 'table',
      rowCount: 30,
      foreignKeys: [{ table: 'customers', from: ['customer_id'], to: ['id'], onDelete: 'CASCADE' }],
      indexes: [{ name: 'orders_by_customer', columns: ['customer_id', 'placed'], unique: false }],
      sample: { columns: ['id', 'customer_id', 'total', 'placed'], truncated: true },
    });
    expect((d.columns as { name: string }[]).map((c) => c.name)).toEqual([
      'id',
      'customer_id',
      'total',
      'placed',
    ]);
    expect((d.sample as { rows: unknown[] }).rows).toHaveLength(2);
    expect(textOf(result)).toMatch(/^The table has 4 columns and 30 rows; its description, as JSON:\n/);
    expect(fenced(textOf(result))?.body).toContain('"orders_by_customer"');
    const odd = structured<{ name: string; columns: { name: string }[] }>(
      await w.call('describe_table', { table_name: 'odd"name', sample_rows: 0 }),
    );
    expect(odd).toMatchObject({ name: 'odd"name', columns: [{ name: 'x' }], sample: { rows: [] } });
  });

  it('describe_table answers a hostile or unknown name with one sentence', async () => {
    for (const name of [...NAME_ATTACKS.slice(0, 8), 'nope']) {
      const result = await w.call('describe_table', { table_name: name });
      expect(result.isError, name).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(
        /^(There is no table ".*"; list_tables shows them\.|Give a table name of 1 to 1024)/s,
      );
      expect(text).not.toContain(unchanged.fixture.dir);
    }
    const empty = await w.call('describe_table', { table_name: '' });
    expect(empty.isError).toBe(true);
  });

  it('search_schema finds tables and columns by part of their name', async () => {
    const result = await w.call('search_schema', { term: 'CUSTOMER' });
    const found = structured<{ matches: unknown[]; truncated: boolean }>(result);
    expect(found.matches).toEqual([
      { table: 'big_orders', type: 'view', column: 'customer_id', columnType: 'INTEGER' },
      { table: 'customers', type: 'table' },
      { table: 'orders', type: 'table', column: 'customer_id', columnType: 'INTEGER' },
    ]);
    expect(found.truncated).toBe(false);
    const limited = structured<{ matches: unknown[]; truncated: boolean }>(
      await w.call('search_schema', { term: 'customer', limit: 1 }),
    );
    expect(limited).toMatchObject({ truncated: true, matches: [{ table: 'big_orders' }] });
    // `%` and `_` are plain characters, not LIKE patterns.
    expect(structured<{ matches: unknown[] }>(await w.call('search_schema', { term: '%' })).matches).toEqual(
      [],
    );
    const blank = await w.call('search_schema', { term: '   ' });
    expect(textOf(blank)).toBe('Give a word to look for in table and column names.');
  });

  it('explain_query shows the plan without running the query, with params bound', async () => {
    const result = await w.call('explain_query', {
      query: 'SELECT * FROM orders WHERE customer_id = ? ORDER BY placed',
      params: [1],
    });
    const plan = structured<{ plan: string[] }>(result).plan;
    expect(plan.join('\n')).toMatch(/SEARCH orders USING INDEX orders_by_customer \(customer_id=\?\)/);
    expect(fenced(textOf(result))?.body).toContain('orders_by_customer');
    // A write is still refused in read-only mode, even only to explain it.
    const write = await w.call('explain_query', { query: 'DELETE FROM t' });
    expect(textOf(write)).toBe('The database is open read-only, so DELETE statements cannot run.');
    const bytecode = structured<{ columns: string[] }>(
      await w.call('explain_query', { query: 'EXPLAIN SELECT 1' }),
    );
    expect(bytecode.columns).toContain('opcode');
  });

  it('append_insight adds to the memo in read-only mode and caps its length', async () => {
    const first = await w.call('append_insight', { insight: 'Orders peak on the 1st of the month.' });
    const count = structured<{ count: number }>(first).count;
    expect(textOf(first)).toMatch(/^Insight added; the memo holds \d+ insights?/);
    expect(w.app.context.insights.list().at(-1)).toBe('Orders peak on the 1st of the month.');
    const second = structured<{ count: number }>(
      await w.call('append_insight', { insight: 'Ada buys most.' }),
    );
    expect(second.count).toBe(count + 1);
    const long = await w.call('append_insight', { insight: 'x'.repeat(2_001) });
    expect(long.isError).toBe(true);
    const blank = await w.call('append_insight', { insight: '   ' });
    expect(textOf(blank)).toBe('An insight needs some text.');
  });
});
