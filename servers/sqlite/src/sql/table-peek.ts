/**
 * The row count and first rows of a table, read by the server itself when that is bounded by
 * construction: an ordinary table (no view, no virtual table), no generated column and no default
 * written as an expression (nothing but stored bytes is read), in a database of at most
 * {@link PEEK_MAX_DATABASE_BYTES}, whose b-trees SQLite's quick check finds sound (see
 * `intact`). Counting then reads each page of the file at most once; measured on a
 * shared 2-core machine, `count(*)` over a 16 MiB table took 8 ms from the OS cache, 0.05 ms once
 * in SQLite's own page cache, so the bound keeps the event loop's pause to a few milliseconds at
 * worst. Anything else (a view runs stored SQL, a big file may take seconds) goes to the query
 * process, which a deadline can stop.
 *
 * Why bother: describe_table otherwise makes two round trips to the query process for a count and
 * five rows, most of its time for a small table. The page is read exactly as the query process
 * reads one (row-reader.ts), on the server's read-only schema connection with the file's schema
 * untrusted.
 */
import type { Cell, Rows } from './cells.js';
import type { Connection } from './connect.js';
import { quoteIdentifier } from './identifiers.js';
import { DEFAULT_MAX_CELL_CHARS } from './query-limits.js';
import { columnNames, readRows } from './row-reader.js';
import { parseRowLines } from './row-text.js';
import { byData, bySchema, prepared } from './schema-cache.js';

/** Largest database (pages in use times page size) whose tables the server counts itself. */
export const PEEK_MAX_DATABASE_BYTES = 8 * 1024 * 1024;

/** What {@link peekTable} needs to know of the table: its stored name and its columns. */
export interface PeekTarget {
  name: string;
  type: 'table' | 'view';
  columns: readonly { hidden: number; defaultValue: string | null }[];
}

/** A table's row count and first rows. */
export interface TablePeek {
  rowCount: number;
  sample: Rows & { truncated: boolean };
}

/**
 * A default SQLite can fill in without running anything: a number, a string or blob literal, NULL,
 * TRUE/FALSE or a CURRENT_… keyword, as `pragma_table_xinfo` shows it (an expression's text shows
 * without its parentheses, so it is matched by what it is not).
 */
const LITERAL_DEFAULT =
  /^(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|[-+]?0x[0-9a-f]+|'(?:[^']|'')*'|x'[0-9a-f]*'|null|true|false|current_(?:time|date|timestamp))$/i;

/** True when reading the table reads nothing but its stored rows. */
function onlyStoredValues(db: Connection, table: PeekTarget): boolean {
  if (table.type !== 'table') return false;
  // Hidden columns belong to virtual tables, generated ones run an expression; so does a default
  // that is not a literal, for rows stored before its column was added.
  const runsCode = (c: PeekTarget['columns'][number]) =>
    c.hidden !== 0 || (c.defaultValue !== null && !LITERAL_DEFAULT.test(c.defaultValue));
  if (table.columns.some(runsCode)) return false;
  const kind = bySchema(db, `kind:${table.name}`, () =>
    prepared(db, "SELECT type FROM pragma_table_list(?) WHERE schema = 'main'").pluck().get(table.name),
  );
  // 'virtual' tables run their module's code; 'shadow' tables (a virtual table's storage) are plain.
  return kind === 'table' || kind === 'shadow';
}

/**
 * True when SQLite's own structural check finds the table's b-trees (and its indexes') sound. The
 * size bound holds only for a sound file: in a crafted one, an interior page may point many times
 * at the same child, and a count then visits it again and again, exponentially with the depth,
 * however small the file. The check marks every page it visits and never descends twice, so it
 * is itself bounded by the file; it runs once per version of the data, in well under a millisecond
 * for a small table. (It skips CHECK constraints, so it runs no stored expression either.)
 */
function intact(db: Connection, name: string): boolean {
  return byData(
    db,
    `intact:${name}`,
    () => prepared(db, 'SELECT * FROM pragma_quick_check(?)').pluck().get(name) === 'ok',
  );
}

/**
 * The count and the first rows of `table` (a page within `sample`'s bounds), or undefined when
 * the server must not read them itself (see above) or SQLite could not (a lock held by a writer,
 * say): the caller then asks the query process.
 *
 * @example
 * ```ts
 * const peek = peekTable(db.schema, describeSchema(db.schema, 'orders'), { maxRows: 5, maxBytes: 65536 });
 * // peek?.rowCount, peek?.sample.rows
 * ```
 */
export function peekTable(
  db: Connection,
  table: PeekTarget,
  sample: { maxRows: number; maxBytes: number },
): TablePeek | undefined {
  try {
    if (!onlyStoredValues(db, table)) return undefined;
    const quoted = quoteIdentifier(table.name);
    // One read transaction: the size checked is the size read, even if another program writes.
    return db.transaction((): TablePeek | undefined => {
      const pages = prepared(db, 'PRAGMA page_count').pluck().get() as number;
      const pageSize = prepared(db, 'PRAGMA page_size').pluck().get() as number;
      if (pages * pageSize > PEEK_MAX_DATABASE_BYTES) return undefined;
      if (!intact(db, table.name)) return undefined;
      const count = prepared(db, `SELECT count(*) FROM ${quoted}`).pluck().get() as number;
      const select = prepared(db, `SELECT * FROM ${quoted}`);
      const limits = { ...sample, offset: 0, maxCellChars: DEFAULT_MAX_CELL_CHARS };
      const columns = bySchema(db, `columns:${table.name}`, () => columnNames(select));
      const page = readRows(select, [], limits, { columns: [...columns] });
      const rows = parseRowLines<Cell>(page.rowsText);
      return { rowCount: count, sample: { columns: page.columns, rows, truncated: page.truncated } };
    })();
  } catch (error) {
    // SQLite's own failure (busy, a damaged page): the query process reads it and says why.
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_'))
      return undefined;
    throw error;
  }
}
