/**
 * A small SQL lexer for the statement classifier. It follows SQLite's own lexical rules closely
 * enough to find what the engine will see: comments and whitespace are dropped, string literals and
 * quoted identifiers become single tokens (so a keyword inside them is never mistaken for one), and
 * bare words keep an upper-case spelling for keyword tests.
 *
 * Whitespace is SQLite's set (space, tab, LF, FF, CR) widened to everything JavaScript calls
 * whitespace. The wider set is the safe direction: where SQLite would glue such a character into a
 * word, the engine sees an identifier instead of a keyword, which no statement starts with, so the
 * text fails to parse rather than slipping past the classifier.
 */

/** What a token is. `quoted` is an identifier in `"…"`, `` `…` `` or `[…]`; `param` a `?1`, `:x`, `@x` or `$x`. */
export type TokenKind = 'word' | 'number' | 'string' | 'quoted' | 'param' | 'punct';

/** One token of the source text, with its place in it. */
export interface SqlToken {
  kind: TokenKind;
  /** The token as written. */
  text: string;
  /** For a word, its ASCII upper-case spelling; for a quoted identifier, its name unquoted. */
  value: string;
  start: number;
  end: number;
}

/** The tokens, and whether a string literal or quoted identifier ran to the end of the text. */
export interface Tokenized {
  tokens: SqlToken[];
  unterminated: boolean;
}

const SQLITE_SPACE = new Set([' ', '\t', '\n', '\f', '\r']);

function isSpace(ch: string): boolean {
  return SQLITE_SPACE.has(ch) || /\s/u.test(ch);
}

/** A character that may start a bare word: ASCII letter, `_`, or anything past ASCII. */
function isWordStart(ch: string): boolean {
  return /[A-Za-z_]/.test(ch) || (ch.charCodeAt(0) >= 0x80 && !isSpace(ch));
}

/** A character that may continue a bare word (SQLite also allows `$` and digits there). */
function isWordPart(ch: string): boolean {
  return isWordStart(ch) || /[0-9$]/.test(ch);
}

/** ASCII-only lower case, the other half of {@link asciiUpper}. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/** ASCII-only upper case, as SQLite compares keywords and names (no Unicode case folding). */
export function asciiUpper(text: string): string {
  return text.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/** End of a quoted run opened at `start` by `open` and closed by `close`; a doubled close is an escape. */
function quotedEnd(sql: string, start: number, close: string, doubling: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === close) {
      if (doubling && sql[i + 1] === close) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/**
 * Splits `sql` into tokens, skipping whitespace, `-- …` line comments and `/* … *\/` block
 * comments (an unclosed block comment runs to the end, as in SQLite).
 *
 * @example
 * ```ts
 * tokenize("/* hi *\/ SELECT 'a;b'").tokens.map((t) => t.kind); // ['word', 'string']
 * ```
 */
export function tokenize(sql: string): Tokenized {
  const tokens: SqlToken[] = [];
  let unterminated = false;
  let i = 0;
  const push = (kind: TokenKind, start: number, end: number, value?: string) => {
    const text = sql.slice(start, end);
    tokens.push({ kind, text, value: value ?? (kind === 'word' ? asciiUpper(text) : text), start, end });
  };
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (isSpace(ch)) {
      i++;
    } else if (ch === '-' && next === '-') {
      const eol = sql.indexOf('\n', i + 2);
      i = eol < 0 ? sql.length : eol + 1;
    } else if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      const end = quotedEnd(sql, i, close, ch !== '[');
      const stop = end < 0 ? sql.length : end;
      if (end < 0) unterminated = true;
      const inner = sql.slice(i + 1, end < 0 ? stop : stop - 1);
      const value = ch === '[' ? inner : inner.split(close + close).join(close);
      push(ch === "'" ? 'string' : 'quoted', i, stop, value);
      i = stop;
    } else if (isWordStart(ch)) {
      let j = i + 1;
      while (j < sql.length && isWordPart(sql[j] as string)) j++;
      push('word', i, j);
      i = j;
    } else if (/[0-9]/.test(ch) || (ch === '.' && next !== undefined && /[0-9]/.test(next))) {
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j] as string)) j++;
      push('number', i, j);
      i = j;
    } else if (ch === '?' || ch === ':' || ch === '@' || ch === '$') {
      let j = i + 1;
      while (j < sql.length && (isWordPart(sql[j] as string) || sql[j] === ':')) j++;
      push(j > i + 1 || ch === '?' ? 'param' : 'punct', i, j);
      i = j;
    } else {
      push('punct', i, i + 1);
      i++;
    }
  }
  return { tokens, unterminated };
}

/** True for a bare word token spelled `keyword` (any case). */
export function isKeyword(token: SqlToken | undefined, keyword: string): boolean {
  return token?.kind === 'word' && token.value === keyword;
}

/** True for the punctuation token `char`. */
export function isPunct(token: SqlToken | undefined, char: string): boolean {
  return token?.kind === 'punct' && token.text === char;
}

/** An identifier's name: a bare word or a quoted identifier (SQLite also takes a string here). */
export function identifierName(token: SqlToken | undefined): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word') return token.text;
  if (token.kind === 'quoted' || token.kind === 'string') return token.value;
  return undefined;
}

/**
 * Index just past the `)` matching the `(` at `open`, or -1 when the parentheses never close.
 */
export function skipParens(tokens: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isPunct(tokens[i], '(')) depth++;
    else if (isPunct(tokens[i], ')')) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Index of the token that ends the first statement (its `;`), or `tokens.length` when the text
 * holds one statement with no `;`. A `CREATE TRIGGER` body holds `;`-terminated statements of its
 * own and ends at `; END ;`, the rule SQLite's `sqlite3_complete` uses; `CASE … END` inside it is
 * not preceded by `;` and so does not end it.
 */
export function firstStatementEnd(tokens: readonly SqlToken[], from: number): number {
  let i = from;
  if (isKeyword(tokens[i], 'EXPLAIN')) i++;
  if (isKeyword(tokens[i], 'QUERY') && isKeyword(tokens[i + 1], 'PLAN')) i += 2;
  const create = isKeyword(tokens[i], 'CREATE');
  const afterCreate =
    isKeyword(tokens[i + 1], 'TEMP') || isKeyword(tokens[i + 1], 'TEMPORARY') ? i + 2 : i + 1;
  const trigger = create && isKeyword(tokens[afterCreate], 'TRIGGER');
  for (let j = from; j < tokens.length; j++) {
    if (!isPunct(tokens[j], ';')) continue;
    if (!trigger) return j;
    if (isKeyword(tokens[j - 1], 'END') && isPunct(tokens[j - 2], ';')) return j;
  }
  return tokens.length;
}
