import { describe, expect, it } from 'vitest';
import { describeSchema, describeTable } from '../src/sql/describe-table.js';
import { listTables, quoteIdentifier, resolveColumn, resolveTable } from '../src/sql/identifiers.js';
import { searchSchema } from '../src/sql/schema-search.js';
import { expectOneSentence, FIXTURE_TABLES, refusal, useOpenFixture } from './kit.js';

const opened = useOpenFixture();

describe('identifiers', () => {
  it('quotes with double quotes doubled', () => {
    expect(quoteIdentifier('plain')).toBe('"plain"');
    expect(quoteIdentifier('odd"name')).toBe('"odd""name"');
    expect(quoteIdentifier('x"; DROP TABLE t; --')).toBe('"x""; DROP TABLE t; --"');
  });

  it('lists tables and views, without sqlite_ internals', () => {
    expect(listTables(opened.db.schema)).toEqual(FIXTURE_TABLES);
  });

  it('resolves names case-insensitively to their stored spelling', () => {
    expect(resolveTable(opened.db.schema, 'ORDERS')).toEqual({ name: 'orders', type: 'table' });
    expect(resolveTable(opened.db.schema, 'odd"name').name).toBe('odd"name');
    expect(resolveColumn(opened.db.schema, resolveTable(opened.db.schema, 'orders'), 'Customer_ID')).toBe(
      'customer_id',
    );
  });

  it('answers an unknown table or column with one sentence that says where to look', async () => {
    const table = expectOneSentence(await refusal(() => resolveTable(opened.db.schema, 'nope')));
    expect(table).toBe('There is no table "nope"; list_tables shows them.');
    const column = await refusal(() => resolveColumn(opened.db.schema, { name: 't', type: 'table' }, 'nope'));
    expect(expectOneSentence(column)).toMatch(/has no column "nope"; describe_table lists them/);
    expect(expectOneSentence(await refusal(() => resolveTable(opened.db.schema, '')))).toMatch(/1 to 1024/);
  });
});

describe('describe', () => {
  it('reports columns, indexes and foreign keys from the schema', () => {
    const orders = describeSchema(opened.db.schema, 'orders');
    expect(orders.columns).toEqual([
      { name: 'id', type: 'INTEGER', notNull: false, defaultValue: null, primaryKey: 1, hidden: 0 },
      { name: 'customer_id', type: 'INTEGER', notNull: true, defaultValue: null, primaryKey: 0, hidden: 0 },
      { name: 'total', type: 'REAL', notNull: true, defaultValue: '0', primaryKey: 0, hidden: 0 },
      { name: 'placed', type: 'TEXT', notNull: false, defaultValue: null, primaryKey: 0, hidden: 0 },
    ]);
    expect(orders.indexes).toEqual([
      {
        name: 'orders_by_customer',
        unique: false,
        origin: 'c',
        partial: false,
        columns: ['customer_id', 'placed'],
      },
    ]);
    expect(orders.foreignKeys).toEqual([
      { table: 'customers', from: ['customer_id'], to: ['id'], onUpdate: 'NO ACTION', onDelete: 'CASCADE' },
    ]);
    expect(describeSchema(opened.db.schema, 'customers').indexes[0]).toMatchObject({
      unique: true,
      origin: 'u',
    });
  });

  it('adds the row count and sample rows', async () => {
    const t = await describeTable(opened.db.schema, opened.runner, 't', { sampleRows: 2 });
    expect(t.rowCount).toBe(20);
    expect(t.sample).toEqual({
      columns: ['id', 'v', 'name'],
      rows: [
        [1, 1, 'row 1'],
        [2, 2, 'row 2'],
      ],
      truncated: true,
    });
    const odd = await describeTable(opened.db.schema, opened.runner, 'ODD"NAME');
    expect(odd).toMatchObject({ name: 'odd"name', rowCount: 0, sample: { columns: ['x'], rows: [] } });
  });

  it('describes a view whose count never ends: count and sample give up at the time limit', async () => {
    const view = await describeTable(opened.db.schema, opened.runner, 'forever', { timeoutMs: 300 });
    expect(view).toMatchObject({
      type: 'view',
      columns: [{ name: 'n' }],
      rowCount: null,
      sample: { rows: [] },
    });
    expect(view.countError).toMatch(/time limit of 0.3 s/);
    expect(view.sampleError).toMatch(/time limit of 0.3 s/);
  });
});

describe('searchSchema', () => {
  it('finds tables and columns whose names contain the term, ignoring case', () => {
    expect(searchSchema(opened.db.schema, 'CUSTOMER').matches).toEqual([
      { table: 'big_orders', type: 'view', column: 'customer_id', columnType: 'INTEGER' },
      { table: 'customers', type: 'table' },
      { table: 'orders', type: 'table', column: 'customer_id', columnType: 'INTEGER' },
    ]);
  });

  it('treats % and _ as plain characters', () => {
    expect(searchSchema(opened.db.schema, '%').matches).toEqual([]);
    expect(searchSchema(opened.db.schema, '_id').matches.map((m) => `${m.table}.${m.column}`)).toEqual([
      'big_orders.customer_id',
      'orders.customer_id',
    ]);
  });

  it('caps the matches and says so', () => {
    const capped = searchSchema(opened.db.schema, 'i', 2);
    expect(capped.matches).toHaveLength(2);
    expect(capped.truncated).toBe(true);
  });

  it('refuses an empty term', async () => {
    expect(expectOneSentence(await refusal(() => searchSchema(opened.db.schema, '  ')))).toMatch(
      /Give a word/,
    );
  });
});
