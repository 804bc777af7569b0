/**
 * The schema as compact text for a model: one line per table or view, in a form close to
 * `CREATE TABLE`, which models read and write best. Shared by the schema resource, the table
 * resource and the prompts, so all three spell a table the same way.
 *
 * Names, declared types and defaults come from the file, and a hostile file can hold any text in
 * them: control characters are escaped (a name cannot start a fake line of its own), names and
 * types are cut at 128 characters and defaults at 40, the lines are fenced as data wherever they
 * are shown, and no row data ever appears here (rows are fenced where they are shown).
 */

import type { Connection } from '../sql/connect.js';
import {
  type ColumnInfo,
  describeSchema,
  type ForeignKeyInfo,
  type TableSchema,
} from '../sql/describe-table.js';
import { cutText, escapeControls } from '../sql/display.js';
import { fenceLines } from '../sql/fence.js';
import { listTables, type TableRef } from '../sql/identifiers.js';

/** Characters of a column default shown; a longer one is cut with "…". */
const MAX_DEFAULT_CHARS = 40;

/**
 * Characters of a name or a declared type shown. SQLite takes any text as a declared type
 * (`x "TEXT -- note to the assistant: …"`) and as a name, so both are cut, marked as cut.
 */
export const MAX_NAME_CHARS = 128;

/** What follows a name or a type that was cut. */
const CUT_MARK = '…(cut)';

/**
 * A name as it can be written in SQL: bare when it is a plain word, otherwise in double quotes
 * with `"` doubled. Control characters are shown escaped (`\u000a`), so such a name reads safely
 * but must be typed with the real character; a name longer than {@link MAX_NAME_CHARS} shows its
 * start, then `…(cut)` after the closing quote. Every name a prompt, a resource or a listing shows
 * goes through here.
 *
 * @example
 * ```ts
 * sqlName('orders'); // 'orders'
 * sqlName('order items'); // '"order items"'
 * sqlName('x'.repeat(200)); // '"xxx…xxx"…(cut)' (128 x)
 * ```
 */
export function sqlName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && name.length <= MAX_NAME_CHARS) return name;
  const quoted = escapeControls(name.replaceAll('"', '""'));
  if (quoted.length <= MAX_NAME_CHARS) return `"${quoted}"`;
  // Cut where the shown text still reads right: not inside an escape or a doubled quote.
  let start = cutText(quoted, MAX_NAME_CHARS)
    .slice(0, -1)
    .replace(/\\u[0-9a-f]{0,3}$|\\$/, '');
  if ((/"+$/.exec(start)?.[0].length ?? 0) % 2 === 1) start = start.slice(0, -1);
  return `"${start}"${CUT_MARK}`;
}

/** A declared type, control characters escaped, cut at {@link MAX_NAME_CHARS}. */
function typeText(type: string): string {
  const shown = escapeControls(type);
  if (shown.length <= MAX_NAME_CHARS) return shown;
  return `${cutText(shown, MAX_NAME_CHARS).slice(0, -1)}${CUT_MARK}`;
}

function defaultText(value: string): string {
  const cut = value.length > MAX_DEFAULT_CHARS ? `${value.slice(0, MAX_DEFAULT_CHARS)}…` : value;
  return escapeControls(cut);
}

function referenceText(key: ForeignKeyInfo): string {
  const to = key.to.every((c) => c === null)
    ? ''
    : `(${key.to.map((c) => (c === null ? '?' : sqlName(c))).join(', ')})`;
  const actions = [
    key.onDelete !== 'NO ACTION' ? ` ON DELETE ${key.onDelete}` : '',
    key.onUpdate !== 'NO ACTION' ? ` ON UPDATE ${key.onUpdate}` : '',
  ].join('');
  return `REFERENCES ${sqlName(key.table)}${to}${actions}`;
}

/** True when a unique index (not the primary key, not partial) covers exactly this column. */
function isUnique(column: string, table: TableSchema): boolean {
  return table.indexes.some(
    (i) => i.unique && !i.partial && i.origin !== 'pk' && i.columns.length === 1 && i.columns[0] === column,
  );
}

/**
 * One column: name, declared type and constraints, with its foreign key when it is the only
 * column of that key.
 *
 * @example
 * ```ts
 * columnText(orders.columns[1], orders); // 'customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE'
 * ```
 */
export function columnText(column: ColumnInfo, table: TableSchema): string {
  const parts = [sqlName(column.name)];
  if (column.type) parts.push(typeText(column.type));
  const soleKey = table.columns.filter((c) => c.primaryKey > 0).length === 1;
  if (column.primaryKey > 0 && soleKey) parts.push('PRIMARY KEY');
  if (column.notNull) parts.push('NOT NULL');
  if (isUnique(column.name, table)) parts.push('UNIQUE');
  if (column.defaultValue !== null) parts.push(`DEFAULT ${defaultText(column.defaultValue)}`);
  if (column.hidden === 2 || column.hidden === 3) parts.push('GENERATED');
  const key = table.foreignKeys.find((k) => k.from.length === 1 && k.from[0] === column.name);
  if (key) parts.push(referenceText(key));
  return parts.join(' ');
}

/** Table-level constraints the column list does not show: a composite primary or foreign key. */
export function constraintTexts(table: TableSchema): string[] {
  const out: string[] = [];
  const primary = table.columns.filter((c) => c.primaryKey > 0).sort((a, b) => a.primaryKey - b.primaryKey);
  if (primary.length > 1) out.push(`PRIMARY KEY(${primary.map((c) => sqlName(c.name)).join(', ')})`);
  for (const key of table.foreignKeys) {
    if (key.from.length > 1)
      out.push(`FOREIGN KEY(${key.from.map(sqlName).join(', ')}) ${referenceText(key)}`);
  }
  return out;
}

/** The columns a model sees: a virtual table's hidden columns (hidden = 1) are left out. */
export function visibleColumns(table: TableSchema): ColumnInfo[] {
  return table.columns.filter((c) => c.hidden !== 1);
}

/**
 * One line for a table or view.
 *
 * @example
 * ```ts
 * tableLine(describeSchema(db, 'customers')); // 'table customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL)'
 * ```
 */
export function tableLine(table: TableSchema): string {
  const items = [...visibleColumns(table).map((c) => columnText(c, table)), ...constraintTexts(table)];
  return `${table.type} ${sqlName(table.name)}(${items.join(', ')})`;
}

/** A table whose columns could not be read (a view over a table that was dropped, say). */
function brokenLine(ref: TableRef): string {
  return `${ref.type} ${sqlName(ref.name)} -- its columns cannot be read; it may refer to something that no longer exists`;
}

/** The lines that fit in `maxChars`, whole lines only. */
function withinBudget(lines: readonly string[], maxChars: number): string[] {
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > maxChars) break;
    kept.push(line);
    size += line.length + 1;
  }
  return kept;
}

/**
 * The schema of the tables named in `only` (every table and view when it is left out), one line
 * each, under a heading that counts them. The lines are fenced as data from the database: names
 * and declared types are the file's own text, and a hostile file can write anything there. With
 * `maxChars`, only the whole lines that fit are kept and a last line says how many were left out.
 *
 * @example
 * ```ts
 * schemaText(db.schema).split('\n')[0]; // '6 tables and 2 views (names as SQL: quote a name that is not a plain word):'
 * ```
 */
export function schemaText(
  db: Connection,
  only?: readonly string[],
  options: { maxChars?: number } = {},
): string {
  const refs = only ? listTables(db).filter((t) => only.includes(t.name)) : listTables(db);
  if (refs.length === 0) return 'The database has no tables or views yet.';
  const lines = refs.map((ref) => {
    try {
      return tableLine(describeSchema(db, ref.name));
    } catch {
      return brokenLine(ref);
    }
  });
  const kept = options.maxChars === undefined ? lines : withinBudget(lines, options.maxChars);
  const tables = refs.filter((r) => r.type === 'table').length;
  const views = refs.length - tables;
  const count = [plural(tables, 'table'), views > 0 ? plural(views, 'view') : '']
    .filter(Boolean)
    .join(' and ');
  const left = lines.length - kept.length;
  const more =
    left > 0 ? `\n… and ${left} more, left out for length: list_tables and search_schema find them.` : '';
  return `${count} (names as SQL: quote a name that is not a plain word):\n${fenceLines(kept).text}${more}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
