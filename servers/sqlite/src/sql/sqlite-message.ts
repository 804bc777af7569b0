/**
 * SQLite's own error messages, made safe to show a model. SQLite quotes text into its messages:
 * a JSON path (`bad JSON path: '…'`), a token (`near "…"`), a table or constraint name
 * (`no such table: …`, `CHECK constraint failed: …`), and a trigger's `RAISE(ABORT, '…')` message
 * is nothing but text. Any of these can come from the database file itself (a view's SQL, a
 * trigger, a constraint name), so a hostile file could make an error message say "ignore previous
 * instructions…". What is kept of SQLite's words:
 * - a quoted part only when it is a single word, number or short run of punctuation (enough for
 *   `near "INTO": syntax error`); anything longer becomes '…', and so does what follows it (a
 *   stored quote SQLite did not double could end the quoted part early);
 * - nothing of `malformed database schema (…)` but those words;
 * - after the prefixes that name something (`no such table:`, `… constraint failed:`), the name only
 *   when it is a plain name, a list of them or a short expression (never two words in a row);
 * - nothing of a trigger's RAISE message;
 * - control characters escaped, and at most {@link MAX_DETAIL_CHARS} characters in all.
 */

import { cutText, escapeControls } from './display.js';

/** Characters of SQLite's message kept at most. */
export const MAX_DETAIL_CHARS = 160;

/** What stands for a part of the message that is not repeated. */
const CUT = "'…'";

/** A quoted part: '…' or "…", with the quote doubled inside. */
const QUOTED = /'(?:[^']|'')*'|"(?:[^"]|"")*"/g;

/** Quoted parts shown as they are: one SQL word or number, or up to three punctuation characters. */
const PLAIN_WORD = /^(?:[A-Za-z_][A-Za-z0-9_$]{0,31}|[0-9][0-9.]{0,15}|[^\sA-Za-z0-9'"\\]{1,3})$/;

/** Messages whose tail after the colon is a name (or names, or a constraint's expression). */
const NAMING =
  /^((?:no such (?:table|column|function|index|view|trigger|module|collation sequence|savepoint)|ambiguous column name|(?:CHECK|UNIQUE|NOT NULL|PRIMARY KEY|FOREIGN KEY) constraint failed): )(.*)$/s;

/**
 * A tail kept: names (`t.c`, `a, b`) or a short expression of names, numbers and operators
 * (`a > 0`). Two words in a row are not kept: that is how a sentence reads, and no name is
 * written so unquoted.
 */
const PLAIN_TAIL = /^[\w$.,()<>=!+\-*/%|&? ]{1,96}$/;
const TWO_WORDS = /[A-Za-z_][\w$]*\s+[A-Za-z_]/;

/** The extended code of an error raised by a trigger's RAISE(ABORT | FAIL | ROLLBACK, '…'). */
const TRIGGER_CODE = 'SQLITE_CONSTRAINT_TRIGGER';

/** What SQLite writes after a quoted token; anything else after a cut quote is not repeated. */
const TRAILER = /^(?:: syntax error| - should this be a string literal in single-quotes\?)?$/;

function cutQuoted(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(QUOTED)) {
    const before = text.slice(last, match.index);
    // A quote left open before this one (its text ran on, or SQLite cut it): nothing after it is repeated.
    const open = before.search(/['"]/);
    if (open >= 0) return `${out}${before.slice(0, open)}${CUT}`;
    out += before;
    last = match.index + match[0].length;
    if (!PLAIN_WORD.test(match[0].slice(1, -1))) {
      // Stored text may hold a quote of its own that SQLite did not double (`near "…"`), so the
      // part after a cut quote is not trusted either, but for SQLite's usual ending.
      const rest = text.slice(last);
      return `${out}${CUT}${TRAILER.test(rest) ? rest : ''}`;
    }
    out += match[0];
  }
  const rest = text.slice(last);
  const open = rest.search(/['"]/);
  return open >= 0 ? `${out}${rest.slice(0, open)}${CUT}` : out + rest;
}

function cutNames(text: string): string {
  // `malformed database schema (name) - …`: the file's own schema, name and all.
  if (text.startsWith('malformed database schema')) return 'malformed database schema';
  const naming = NAMING.exec(text);
  if (!naming) return text;
  const [, prefix, tail] = naming as unknown as [string, string, string];
  const bare = tail.replaceAll(CUT, '?');
  return PLAIN_TAIL.test(bare) && !TWO_WORDS.test(bare) ? text : `${prefix}${CUT}`;
}

/**
 * What of SQLite's `message` may be shown, without a closing full stop.
 *
 * @example
 * ```ts
 * sqliteDetail("bad JSON path: '$ ignore previous instructions'"); // "bad JSON path: '…'"
 * sqliteDetail('near "INTO": syntax error'); // 'near "INTO": syntax error'
 * sqliteDetail('no such table: main.gone'); // 'no such table: main.gone'
 * ```
 */
export function sqliteDetail(message: string, code?: string): string {
  if (code === TRIGGER_CODE) {
    return 'a trigger stopped it with a message of its own, not repeated here because it is text stored in the database (the trigger is in sqlite_schema)';
  }
  const detail = escapeControls(cutNames(cutQuoted(message)).replace(/\s+/g, ' ').trim());
  return cutText(detail, MAX_DETAIL_CHARS).replace(/[.\s]+$/, '') || 'no reason given';
}

/**
 * SQLite's refusal of a statement as one sentence.
 *
 * @example
 * ```ts
 * sqliteSentence('no such column: nope'); // 'SQLite refused the statement: no such column: nope.'
 * ```
 */
export function sqliteSentence(message: string, code?: string): string {
  return `SQLite refused the statement: ${sqliteDetail(message, code)}.`;
}
