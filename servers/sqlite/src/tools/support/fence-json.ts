/**
 * A value from the database (a table's description, a query plan) as fenced JSON text: the same
 * per-call boundary as rows, and `<`/`>` escaped inside the JSON so no stored name can spell the
 * closing tag.
 *
 * The JSON is laid out one entry per line (an object's keys, an array's items, each item compact)
 * rather than indented: a 200-column table is then 200 short lines, not 1,600, and a third fewer
 * bytes to send and for the model to read.
 */
import { fenceText } from '../../sql/fence.js';
import { escapeAngles } from '../../sql/row-text.js';

/** `value` as JSON, objects and arrays one entry per line down to their items. */
function jsonLines(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[\n${value.map((item) => JSON.stringify(item)).join(',\n')}\n]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, entry]) => `${JSON.stringify(key)}: ${jsonLines(entry)}`).join(',\n')}\n}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `value` as JSON inside a fresh untrusted-data fence. */
export function fenceJson(value: unknown): string {
  return fenceText(escapeAngles(jsonLines(value))).text;
}
