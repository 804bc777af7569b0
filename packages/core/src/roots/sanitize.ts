/**
 * Making untrusted text safe to quote inside a one-line error message: control characters (and the
 * invisible bidi overrides that can make text read differently from what it is) are escaped, so a
 * crafted path can neither break the message into several lines nor hide part of itself.
 */

/** Longest quoted input, in characters; longer inputs are cut and marked with "…". */
export const MAX_QUOTED_LENGTH = 200;

// C0, DEL, C1, line/paragraph separators and bidi embedding/override/isolate controls.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Replaces control characters with visible escapes (`\n`, `\t`, `\u0000`, …).
 *
 * @example escapeControlChars('a\u0000b') // 'a\\u0000b'
 */
export function escapeControlChars(text: string): string {
  return text.replace(
    UNSAFE,
    (ch) => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The form of a user-supplied string that may appear between quotes in a message: control characters
 * escaped, cut to {@link MAX_QUOTED_LENGTH} characters (whole code points, so no half surrogate pairs).
 *
 * @example sanitizeForMessage('x\ny') // 'x\\ny'
 */
export function sanitizeForMessage(text: string): string {
  const chars = Array.from(text);
  const cut = chars.length > MAX_QUOTED_LENGTH ? `${chars.slice(0, MAX_QUOTED_LENGTH).join('')}…` : text;
  return escapeControlChars(cut);
}
