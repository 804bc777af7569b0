/**
 * How text from the database or the user is shown in what a model reads: control characters
 * escaped (a name may hold a newline that would start a fake line of its own, or a bidi override
 * that hides text), and a name inside an error sentence quoted and cut to a short length.
 */

/** Longest name shown in a message, in characters. */
const MAX_SHOWN = 60;

/**
 * Characters that would break a line or hide text: C0 and C1 controls, line and paragraph
 * separators, zero-width characters, bidi embeddings, overrides and isolates, and the BOM.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

/**
 * `text` with control characters shown as `\u000a`-style escapes, so it stays on its line.
 *
 * @example
 * ```ts
 * escapeControls('a\nb'); // 'a\\u000ab'
 * ```
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** True when `text` holds a character {@link escapeControls} would escape. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * `text` cut to `max` characters (never inside a surrogate pair), with `…` when it was longer.
 *
 * @example
 * ```ts
 * cutText('abcdef', 3); // 'abc…'
 * ```
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/**
 * The name in double quotes, JSON-escaped (and every control character escaped) and cut to {@link MAX_SHOWN} characters.
 *
 * @example
 * ```ts
 * shownName('t"\nDROP'); // '"t\\"\\nDROP"'
 * ```
 */
export function shownName(name: string): string {
  // JSON escapes the C0 controls; the others (bidi overrides, line separators) are escaped after.
  return escapeControls(JSON.stringify(cutText(name, MAX_SHOWN)));
}
