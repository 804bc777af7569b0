/**
 * Git prints a path that holds a quote, a backslash, a control character or (by default) a
 * non-ASCII byte between double quotes, with C escapes (`\t`, `\"`, `\303\251` for "é"). Reading
 * it back is needed to name the file again, e.g. to `--skip-to` it.
 */

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** `text` as git meant it: unquoted when it is a quoted path, as it is otherwise. */
export function unquotePath(text: string): string {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  const parts: Buffer[] = [];
  const body = text.slice(1, -1);
  let plain = 0;
  for (let i = body.indexOf('\\'); i !== -1; i = body.indexOf('\\', plain)) {
    parts.push(Buffer.from(body.slice(plain, i), 'utf8'));
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    const next = body[i + 1] ?? '';
    if (octal) {
      parts.push(Buffer.of(Number.parseInt(octal[0], 8)));
      plain = i + 4;
    } else if (Object.hasOwn(ESCAPES, next)) {
      parts.push(Buffer.of(ESCAPES[next] ?? 0));
      plain = i + 2;
    } else {
      // Not an escape git writes: keep the text as it came.
      return text;
    }
  }
  parts.push(Buffer.from(body.slice(plain), 'utf8'));
  return Buffer.concat(parts).toString('utf8');
}
