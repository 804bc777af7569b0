/**
 * How a value read from SQLite becomes a result cell that JSON can carry and a client can show.
 * Runs in the query process, so a large value is cut down before it crosses to the server.
 *
 * - INTEGER comes as BigInt (safe-integers mode): a number when it fits in a double exactly,
 *   otherwise its decimal text, so 2^63-1 is not silently rounded;
 * - REAL stays a number; ±Infinity (SQLite has them, JSON does not) becomes the text "Infinity";
 * - TEXT longer than the cell cap becomes `{ kind: 'text', chars, preview }`;
 * - BLOB becomes `{ kind: 'blob', bytes, hex }` with the first bytes in hex: binary is never
 *   passed on as text.
 */

/** The integers a double holds exactly, as BigInts made once (not per cell). */
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Bytes of a BLOB shown in hex. */
export const BLOB_PREVIEW_BYTES = 32;

/** A BLOB, by its length and a hex preview of its head. */
export interface BlobCell {
  kind: 'blob';
  bytes: number;
  hex: string;
}

/** TEXT cut at the cell cap: its full length in characters and its head. */
export interface LongTextCell {
  kind: 'text';
  chars: number;
  preview: string;
}

/** One value of a result row. */
export type Cell = null | number | string | BlobCell | LongTextCell;

/** A page of a result: column names and rows of cells. */
export interface Rows {
  columns: string[];
  rows: Cell[][];
}

/**
 * The head of `text`, at most `max` UTF-16 units, never splitting a surrogate pair. It is a copy:
 * a plain `slice` of a long string keeps the whole string alive in V8, and a page of heads of
 * 5 MB cells would then hold every one of them.
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const head = text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
  return Buffer.from(head, 'utf16le').toString('utf16le');
}

/**
 * The cell for a value better-sqlite3 returned (with safe integers on).
 *
 * @example
 * ```ts
 * renderCell(9007199254740993n, 100); // '9007199254740993'
 * renderCell(Buffer.from('hi'), 100); // { kind: 'blob', bytes: 2, hex: '6869' }
 * ```
 */
export function renderCell(value: unknown, maxChars: number): Cell {
  // Most frequent first: with safe integers on, every INTEGER is a BigInt.
  if (typeof value === 'bigint') {
    return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
  }
  if (typeof value === 'string') {
    return value.length > maxChars
      ? { kind: 'text', chars: value.length, preview: textHead(value, maxChars) }
      : value;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) {
    const head = Buffer.from(value.buffer, value.byteOffset, Math.min(value.byteLength, BLOB_PREVIEW_BYTES));
    return { kind: 'blob', bytes: value.byteLength, hex: head.toString('hex') };
  }
  return String(value);
}

/** True for a BLOB cell. */
export function isBlobCell(cell: Cell): cell is BlobCell {
  return typeof cell === 'object' && cell !== null && cell.kind === 'blob';
}

/** True for a cut TEXT cell. */
export function isLongTextCell(cell: Cell): cell is LongTextCell {
  return typeof cell === 'object' && cell !== null && cell.kind === 'text';
}
