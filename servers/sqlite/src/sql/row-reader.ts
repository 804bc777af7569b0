/**
 * One page of a statement's rows, as the query process sends it: cells rendered (cells.ts), each
 * row written once as a line of the text copy (row-text.ts), cut at the row cap and at the byte
 * budget, the text's exact size. The query process reads every page this way; the server's own
 * bounded read of a small table (table-peek.ts) does too, so both give the same page.
 *
 * Imports only its siblings, like the query process that runs it.
 */
import type Database from 'better-sqlite3';
import { renderCell } from './cells.js';
import type { BindParams } from './query-protocol.js';
import { rowLine } from './row-text.js';

/** Least time between two progress reports. */
const PROGRESS_MS = 200;

/** Where a page starts and how big it may be. */
export interface PageLimits {
  /** Rows to skip first (the pages already shown). */
  offset: number;
  maxRows: number;
  /** Bytes of the page's text: the column line and each row line with its line break, as UTF-8. */
  maxBytes: number;
  maxCellChars: number;
}

/** A page: column names, the rows as text, and where it was cut. */
export interface RowPageText {
  columns: string[];
  /** One JSON array per row, joined by `\n`; `''` for none (after the parts, with `onChunk`). */
  rowsText: string;
  /** Rows on the page, parts included. */
  rowCount: number;
  /** More rows were there than the page holds. */
  truncated: boolean;
  /** Rows read (skipped ones included) up to the cut. */
  rowsRead: number;
}

/** Who hears of a long read, and what the caller already knows. */
export interface ReadOptions {
  /** Rows read so far, about every 200 ms of a long read. */
  onProgress?: (rowsRead: number) => void;
  /**
   * The statement's column names, when the caller has them already: `stmt.columns()` reads five
   * facts of every column, 0.2 ms for a 200-column table, for the names alone.
   */
  columns?: string[];
  /**
   * Hears the rows read so far in parts of about {@link CHUNK_BYTES} (lines joined by `\n`), as
   * they are read; the page then holds only the rows after the last part. The query process sends
   * each part on at once, so the server parses it while the next is being read.
   */
  onChunk?: (rowsText: string, rowCount: number) => void;
}

/** Bytes of row text per part handed to {@link ReadOptions.onChunk}. */
export const CHUNK_BYTES = 64 * 1024;

/** The column names of `stmt`, a statement that returns rows. */
export function columnNames(stmt: Database.Statement): string[] {
  return stmt.columns().map((column) => column.name);
}

/** Reads one page of `stmt` (a statement that returns rows). */
export function readRows(
  stmt: Database.Statement,
  params: BindParams,
  limits: PageLimits,
  options: ReadOptions = {},
): RowPageText {
  const { onProgress, onChunk } = options;
  stmt.raw(true);
  stmt.safeIntegers(true);
  const columns = options.columns ?? columnNames(stmt);
  const { offset, maxRows, maxBytes, maxCellChars } = limits;
  let bytes = Buffer.byteLength(rowLine(columns));
  let lines: string[] = [];
  let rowCount = 0;
  let chunkBytes = 0;
  let seen = 0;
  let truncated = false;
  let lastProgress = Date.now();
  for (const raw of stmt.iterate(params) as IterableIterator<unknown[]>) {
    seen++;
    if (onProgress && (seen & 255) === 0 && Date.now() - lastProgress >= PROGRESS_MS) {
      lastProgress = Date.now();
      onProgress(seen);
    }
    if (seen <= offset) continue;
    if (rowCount >= maxRows) {
      truncated = true;
      break;
    }
    // The row array is fresh for every row, so its cells are rendered in place.
    for (let i = 0; i < raw.length; i++) raw[i] = renderCell(raw[i], maxCellChars);
    const line = rowLine(raw);
    const size = Buffer.byteLength(line) + 1;
    // The first row of a page always goes in, so paging always moves on.
    if (rowCount > 0 && bytes + size > maxBytes) {
      truncated = true;
      break;
    }
    lines.push(line);
    rowCount++;
    bytes += size;
    chunkBytes += size;
    if (onChunk && chunkBytes >= CHUNK_BYTES) {
      onChunk(lines.join('\n'), lines.length);
      lines = [];
      chunkBytes = 0;
    }
  }
  return { columns, rowsText: lines.join('\n'), rowCount, truncated, rowsRead: seen };
}
