/**
 * export_query's formats: CSV and JSON of a page of rows.
 *
 * CSV follows RFC 4180: fields holding a comma, a quote, CR or LF are quoted with `"` doubled,
 * records end with CRLF, the first record is the header. Because exported CSV is mostly opened in
 * a spreadsheet, a TEXT cell that starts with `=`, `+`, `-`, `@`, a tab or CR (which a spreadsheet
 * may run as a formula: "CSV injection") gets a leading `'` by default, as OWASP recommends;
 * numbers are never changed, and `formulaGuard: false` turns the guard off for machine readers.
 *
 * Cells are as the runner rendered them: a BLOB is written as `<blob N bytes>` and a cut TEXT as
 * its head plus `…`; raise the runner's cell limit when exporting long text.
 */

import { type Cell, isBlobCell, isLongTextCell, type Rows } from './cells.js';

/** Export options. */
export interface CsvOptions {
  /** Prefix `'` to text cells a spreadsheet would treat as a formula. Default true. */
  formulaGuard?: boolean;
}

const FORMULA_START = /^[=+\-@\t\r]/;

function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  if (typeof cell === 'string') return cell;
  if (isBlobCell(cell)) return `<blob ${cell.bytes} bytes>`;
  return `${cell.preview}…`;
}

function csvField(text: string, guard: boolean, isText: boolean): string {
  const safe = guard && isText && FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Rows as RFC 4180 CSV with a header record.
 *
 * @example
 * ```ts
 * toCsv({ columns: ['a', 'b'], rows: [['x,y', '=1+1']] }); // 'a,b\r\n"x,y",\'=1+1\r\n'
 * ```
 */
export function toCsv(rows: Rows, options: CsvOptions = {}): string {
  const guard = options.formulaGuard ?? true;
  const header = rows.columns.map((name) => csvField(name, guard, true)).join(',');
  const records = rows.rows.map((row) =>
    row
      .map((cell) => csvField(cellText(cell), guard, typeof cell === 'string' || isLongTextCell(cell)))
      .join(','),
  );
  return `${[header, ...records].join('\r\n')}\r\n`;
}

/** Column names made unique for object keys: a repeated `a` becomes `a:2`, `a:3`. */
export function uniqueNames(columns: readonly string[]): string[] {
  const seen = new Set<string>();
  return columns.map((name) => {
    let key = name;
    for (let n = 2; seen.has(key); n++) key = `${name}:${n}`;
    seen.add(key);
    return key;
  });
}

/**
 * Rows as a JSON array of objects keyed by column name (repeated names made unique). Keys are own
 * properties even when a column is called `__proto__`.
 *
 * @example
 * ```ts
 * toJson({ columns: ['id', 'id'], rows: [[1, 2]] }); // '[{"id":1,"id:2":2}]'
 * ```
 */
export function toJson(rows: Rows, space?: number): string {
  const keys = uniqueNames(rows.columns);
  const objects = rows.rows.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i] ?? null])));
  return JSON.stringify(objects, null, space);
}
