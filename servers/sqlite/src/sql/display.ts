/**
 * How a name the user gave is shown inside an error sentence: quoted, with control characters and
 * quotes escaped (a name may hold a newline or a fake second sentence) and cut to a short length.
 */

/** Longest name shown in a message, in characters. */
const MAX_SHOWN = 60;

/**
 * The name in double quotes, JSON-escaped and cut to {@link MAX_SHOWN} characters.
 *
 * @example
 * ```ts
 * shownName('t"\nDROP'); // '"t\\"\\nDROP"'
 * ```
 */
export function shownName(name: string): string {
  const cut = name.length > MAX_SHOWN ? `${name.slice(0, MAX_SHOWN)}…` : name;
  return JSON.stringify(cut);
}
