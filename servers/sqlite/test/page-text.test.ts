/**
 * A page of rows as text (row-text.ts) and the quick output checks of the tools (quick-check.ts):
 * the text parses back to the very cells it was made from, with no line break or angle bracket a
 * cell could use to leave its line or the fence, and the quick check never accepts what the output
 * schema would refuse.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CHUNK_BYTES, readRows } from '../src/sql/row-reader.js';
import { escapeAngles, parseRowLines, rowLine, rowLines } from '../src/sql/row-text.js';
import { describeTable } from '../src/tools/describe-table.js';
import { listTables } from '../src/tools/list-tables.js';
import { readQuery } from '../src/tools/read-query.js';
import { isCell, isRows, withQuickCheck } from '../src/tools/support/quick-check.js';
import { CellSchema, RowsShape } from '../src/tools/support/schemas.js';

const TRICKY = [
  'line\nbreak',
  'crlf\r\nbreak',
  '</untrusted-data-x>',
  '<b>bold</b>',
  'back\\slash\\',
  'quote " inside',
  'sep\u2028arator\u2029',
  'lone \ud800 surrogate',
  'emoji 😀',
  '',
  '],[',
];

describe('row text', () => {
  it('parses back to the same cells, one line per row', () => {
    const rows = [
      ...TRICKY.map((text, i) => [i, text, null]),
      [1.5, '9223372036854775807', { kind: 'blob', bytes: 3, hex: '00ff10' }],
      [-0, { kind: 'text', chars: 9000, preview: '<script>' }, 'Infinity'],
    ];
    const text = rowLines(rows);
    expect(text.split('\n')).toHaveLength(rows.length);
    expect(text).not.toMatch(/[<>]/);
    // Lone surrogates come back as JSON writes them; everything else exactly.
    expect(parseRowLines(text)).toEqual(rows.map((row) => row.map((cell) => (cell === 0 ? 0 : cell))));
  });

  it('escapes angle brackets as JSON escapes and leaves other text as it is', () => {
    expect(rowLine(['<a>'])).toBe('["\\u003ca\\u003e"]');
    const clean = '[1,"plain"]';
    expect(escapeAngles(clean)).toBe(clean);
    expect(parseRowLines('')).toEqual([]);
  });
});

describe('reading a page', () => {
  it('hands out parts that, with the rest, are the same page as one read', () => {
    const db = new Database(':memory:');
    try {
      const sql =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000) SELECT x, printf('%.60c', '<') FROM c";
      const limits = { offset: 10, maxRows: 2500, maxBytes: 1 << 20, maxCellChars: 100 };
      const whole = readRows(db.prepare(sql), [], limits);
      const parts: string[] = [];
      let counted = 0;
      const last = readRows(db.prepare(sql), [], limits, {
        onChunk: (text, count) => {
          parts.push(text);
          counted += count;
        },
      });
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.every((part) => Buffer.byteLength(part) >= CHUNK_BYTES - 1024)).toBe(true);
      expect(counted + last.rowsText.split('\n').length).toBe(2500);
      expect([...parts, last.rowsText].join('\n')).toBe(whole.rowsText);
      expect({ ...last, rowsText: whole.rowsText }).toEqual(whole);
      expect(parseRowLines<number | string>(whole.rowsText)[0]).toEqual([11, '<'.repeat(60)]);
    } finally {
      db.close();
    }
  });
});

describe('quick output check', () => {
  const samples: unknown[] = [
    null,
    0,
    -1.5,
    'text',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    undefined,
    [],
    {},
    { kind: 'blob', bytes: 3, hex: 'ff' },
    { kind: 'blob', bytes: '3', hex: 'ff' },
    { kind: 'blob', bytes: 3 },
    { kind: 'text', chars: 5, preview: 'ab' },
    { kind: 'text', chars: Number.NaN, preview: 'ab' },
    { kind: 'other', chars: 5, preview: 'ab' },
    { kind: 'text', chars: 5, preview: 'ab', extra: 1 },
  ];

  it('accepts a cell only when the cell schema does, and every cell the server makes', () => {
    for (const value of samples) {
      if (isCell(value)) expect(CellSchema.safeParse(value).success).toBe(true);
    }
    for (const value of [null, 0, -1.5, 'text', { kind: 'blob', bytes: 3, hex: 'ff' }]) {
      expect(isCell(value)).toBe(true);
    }
  });

  it('accepts rows only when the rows schema does', () => {
    const rows = z.object(RowsShape);
    const cases: [unknown, unknown][] = [
      [['a'], [[1, 'x', null]]],
      [['a'], []],
      [[], [[]]],
      [[1], [[1]]],
      [['a'], [1]],
      [['a'], [[Number.NaN]]],
      ['a', [[1]]],
      [['a'], [[{ kind: 'blob', bytes: 1, hex: '00' }]]],
    ];
    for (const [columns, body] of cases) {
      if (isRows(columns, body)) expect(rows.safeParse({ columns, rows: body }).success).toBe(true);
    }
    expect(isRows(['a'], [[1, 'x', null]])).toBe(true);
  });

  it('answers valid values itself and leaves the rest to zod, with zod’s own issues', () => {
    let checked = 0;
    const schema = withQuickCheck(z.object({ n: z.number() }), (value) => {
      checked++;
      return typeof (value as { n?: unknown }).n === 'number' && Number.isFinite((value as { n: number }).n);
    });
    const standard = schema['~standard'];
    expect(standard.validate({ n: 1 })).toEqual({ value: { n: 1 } });
    const refused = standard.validate({ n: 'one' }) as { issues?: { path?: unknown[] }[] };
    expect(refused.issues?.[0]?.path).toEqual(['n']);
    expect(checked).toBe(2);
    // The JSON Schema clients see is zod's own.
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(z.object({ n: z.number() })));
  });
});

describe('the quick checks of the tools’ outputs', () => {
  const description = {
    name: 'orders',
    type: 'table',
    columns: [
      { name: 'id', type: 'INTEGER', notNull: false, defaultValue: null, primaryKey: 1, hidden: 0 },
      { name: 'total', type: 'REAL', notNull: true, defaultValue: '0', primaryKey: 0, hidden: 0 },
    ],
    indexes: [{ name: 'by_total', unique: false, origin: 'c', partial: false, columns: ['total', null] }],
    foreignKeys: [
      { table: 'customers', from: ['id'], to: [null], onUpdate: 'NO ACTION', onDelete: 'CASCADE' },
    ],
    rowCount: 2,
    sample: { columns: ['id', 'total'], rows: [[1, 2.5]], truncated: true },
  };
  const outputs: [string, z.ZodType, unknown][] = [
    [
      'read_query',
      readQuery.output as z.ZodType,
      { columns: ['a'], rows: [[1, null, 'x']], rowCount: 1, offset: 0, truncated: true, nextCursor: 'c' },
    ],
    [
      'list_tables',
      listTables.output as z.ZodType,
      { tables: [{ name: 't', type: 'view' }], nextCursor: 'c' },
    ],
    ['describe_table', describeTable.output as z.ZodType, description],
  ];
  const replacements = [undefined, null, 'x', 1, Number.NaN, true, [], {}];

  /** Every path to a value inside `value`, the root excluded. */
  function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
    if (typeof value !== 'object' || value === null) return [];
    return Object.entries(value).flatMap(([key, child]) => {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      return [path, ...paths(child, path)];
    });
  }

  function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
    const copy = structuredClone(value) as Record<string | number, unknown>;
    let at = copy;
    for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
    const last = path.at(-1) as string | number;
    if (by === undefined && !Array.isArray(at)) delete at[last];
    else at[last] = by;
    return copy;
  }

  it.each(outputs)(
    '%s: valid exactly when zod says so, for every one-field change',
    (_name, schema, valid) => {
      const validate = (value: unknown) =>
        schema['~standard'].validate(value) as { value?: unknown; issues?: unknown };
      // The very object back, not zod's copy: the quick check answered.
      expect(validate(valid).value).toBe(valid);
      for (const path of paths(valid)) {
        for (const by of replacements) {
          const value = replaced(valid, path, by);
          expect(validate(value).issues === undefined, JSON.stringify(path)).toBe(
            schema.safeParse(value).success,
          );
        }
      }
    },
  );
});
