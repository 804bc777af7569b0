/**
 * Rows as the text copy shows them: one JSON array per line, with `<` and `>` escaped as `\u003c`
 * and `\u003e` so that no cell can spell a fence's closing tag. The escapes are JSON's own, so the
 * same text parses back to the very cells it was made from.
 *
 * The query process writes a page in this form once: it is what crosses to the server (one string,
 * not a tree of 100,000 cells), the exact measure of the page's byte budget, and the text copy as
 * the model sees it. The server parses it once for the structured copy.
 */

/** `json` with `<` and `>` written as JSON escapes: same value, no tag can be spelt. */
export function escapeAngles(json: string): string {
  // Most rows hold no angle at all; looking is far cheaper than replacing.
  if (json.indexOf('<') === -1 && json.indexOf('>') === -1) return json;
  return json.replaceAll('<', '\\u003c').replaceAll('>', '\\u003e');
}

/**
 * One row (or the column names) as a line of the text copy.
 *
 * @example
 * ```ts
 * rowLine([1, '<b>']); // '[1,"\\u003cb\\u003e"]'
 * ```
 */
export function rowLine(row: readonly unknown[]): string {
  return escapeAngles(JSON.stringify(row));
}

/** Rows as lines, joined by `\n`; `''` for none. */
export function rowLines(rows: readonly (readonly unknown[])[]): string {
  return rows.map(rowLine).join('\n');
}

/**
 * The rows of lines made by {@link rowLine}, joined by `\n`. JSON never writes a raw line break
 * (one inside a string is `\n`), so every line break is between two rows.
 *
 * @example
 * ```ts
 * parseRowLines('[1,"a"]\n[2,"b"]'); // [[1, 'a'], [2, 'b']]
 * ```
 */
export function parseRowLines<T>(text: string): T[][] {
  if (text === '') return [];
  return JSON.parse(`[${text.replaceAll('\n', ',')}]`) as T[][];
}
