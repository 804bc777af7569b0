/**
 * Classifies one SQL statement from its text, before anything prepares it. Preparing is already
 * acting (a few pragmas take effect at prepare time), and better-sqlite3 has no authorizer, so this
 * is where ATTACH, VACUUM, transaction control, load_extension and PRAGMA writes are refused, in
 * read-only and write mode alike. After it, the query process still checks `stmt.readonly` and
 * `stmt.reader`; and in read-only mode the engine itself refuses every write (readonly open flag).
 *
 * The result also says how a write counts, so a tool can ask the user before DDL, DROP, or an
 * UPDATE/DELETE with no WHERE. It returns the statement's exact text (comments and the closing `;`
 * trimmed): that text, and nothing else, is what gets prepared.
 */

import { UserError } from '@mcpkit/core/errors';
import { shownName } from './display.js';
import { checkPragmaFunction, type PragmaUse, pragmaVerdict } from './pragma-policy.js';
import {
  firstStatementEnd,
  identifierName,
  isKeyword,
  isPunct,
  type SqlToken,
  skipParens,
  tokenize,
} from './sql-tokens.js';

/**
 * How a statement counts: `read` changes nothing; `write` changes rows; `ddl` changes the schema;
 * `destructive` drops something or updates/deletes every row (no WHERE).
 */
export type StatementKind = 'read' | 'write' | 'ddl' | 'destructive';

/** A statement that may run, as the classifier read it. */
export interface ClassifiedStatement {
  /** How it counts. An EXPLAIN runs nothing and is always `read`; see `explained`. */
  kind: StatementKind;
  /** Its leading keyword in upper case (for EXPLAIN, the explained statement's). */
  verb: string;
  /** The text starts with EXPLAIN or EXPLAIN QUERY PLAN. */
  explain: boolean;
  /** For an EXPLAIN, how the explained statement would count. */
  explained?: StatementKind;
  /** The statement alone: from its first token to its last, without comments around it or `;`. */
  text: string;
}

/** Whether the database was opened for writing. */
export interface ClassifyOptions {
  write: boolean;
}

/** Longest SQL text accepted, in characters. */
export const MAX_SQL_CHARS = 100_000;

const TRANSACTION_VERBS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/**
 * Reads `sql` as exactly one statement and says how it counts, or throws a {@link UserError}
 * saying why it may not run.
 *
 * @example
 * ```ts
 * classifyStatement('/* x *\/ DELETE FROM t;', { write: true }).kind; // 'destructive'
 * classifyStatement('WITH m AS (SELECT 1) DELETE FROM t', { write: false }); // throws: read-only
 * ```
 */
export function classifyStatement(sql: string, options: ClassifyOptions): ClassifiedStatement {
  if (sql.length > MAX_SQL_CHARS) {
    throw new UserError(`The SQL is longer than ${MAX_SQL_CHARS} characters; send a shorter statement.`);
  }
  // SQLite stops reading at a NUL, so `DELETE FROM t\0 WHERE id = 1` would run without its WHERE
  // (and better-sqlite3's trailing-statement check stops there too).
  if (sql.includes('\0')) throw new UserError('The SQL contains a NUL character; remove it.');
  // Refused wherever it appears, even in a string or a comment: a false alarm costs a rewording,
  // a miss would load native code (the engine refuses it too: the SQL function stays disabled).
  if (/load_extension/i.test(sql)) {
    throw new UserError('load_extension is refused: SQLite extensions stay disabled on this server.');
  }
  const { tokens, unterminated } = tokenize(sql);
  if (unterminated) throw new UserError('The SQL has a quote or bracket that is never closed.');
  // A pragma's table-valued function may appear anywhere a table can (a join, a subquery, in any
  // quoting, even as a string: SQLite takes 'name' as a table name), so every name is checked.
  for (const token of tokens) {
    if (token.kind === 'word' || token.kind === 'quoted' || token.kind === 'string') {
      const name = identifierName(token);
      if (name !== undefined && /^pragma_\w+$/i.test(name)) checkPragmaFunction(name);
    }
  }
  let start = 0;
  while (isPunct(tokens[start], ';')) start++;
  const first = tokens[start];
  if (!first) throw new UserError('The SQL holds no statement; send one statement.');
  const end = firstStatementEnd(tokens, start);
  if (tokens.slice(end).some((token) => !isPunct(token, ';'))) {
    throw new UserError('Send one SQL statement per call; this text holds more than one.');
  }
  const statement = tokens.slice(start, end);
  const last = statement[statement.length - 1] as SqlToken;
  const text = sql.slice(first.start, last.end);

  let i = 0;
  const explain = isKeyword(statement[0], 'EXPLAIN');
  if (explain) {
    i = isKeyword(statement[1], 'QUERY') && isKeyword(statement[2], 'PLAN') ? 3 : 1;
    if (i >= statement.length) throw new UserError('EXPLAIN needs a statement to explain.');
  }
  const head = statement[i];
  const verb = head?.kind === 'word' ? head.value : '';
  const kind = kindOf(statement, i, options.write);
  if (!options.write && kind !== 'read') {
    throw new UserError(`The database is open read-only, so ${verb} statements cannot run.`);
  }
  return explain ? { kind: 'read', verb, explain, explained: kind, text } : { kind, verb, explain, text };
}

/** How the statement whose verb is at `i` counts; throws for the statements never run. */
function kindOf(tokens: readonly SqlToken[], i: number, write: boolean): StatementKind {
  const head = tokens[i];
  if (head?.kind !== 'word') throw notAStatement(head);
  const verb = head.value;
  switch (verb) {
    case 'SELECT':
    case 'VALUES':
      return 'read';
    case 'WITH':
      return mainKind(tokens, afterWith(tokens, i));
    case 'INSERT':
    case 'REPLACE':
    case 'UPDATE':
    case 'DELETE':
      return mainKind(tokens, i);
    case 'CREATE':
    case 'REINDEX':
      return 'ddl';
    case 'ALTER':
      return hasTopLevel(tokens, i + 1, 'DROP') ? 'destructive' : 'ddl';
    case 'DROP':
      return 'destructive';
    case 'ANALYZE':
      return 'write';
    case 'PRAGMA':
      return pragmaVerdict(readPragma(tokens, i), write);
    case 'ATTACH':
    case 'DETACH':
      throw new UserError(
        `${verb} is refused: this server works on its one database file and opens no other.`,
      );
    case 'VACUUM':
      throw new UserError(
        'VACUUM is refused: it rewrites the whole file, and VACUUM INTO writes a copy elsewhere.',
      );
    case 'EXPLAIN':
      throw new UserError('EXPLAIN cannot be nested; explain the statement itself.');
    default:
      if (TRANSACTION_VERBS.has(verb)) {
        throw new UserError(`${verb} is refused: each call runs as its own transaction.`);
      }
      throw notAStatement(head);
  }
}

function notAStatement(head: SqlToken | undefined): UserError {
  const shown = head ? shownName(head.text) : 'The text';
  return new UserError(
    `${shown} does not start a statement this server runs; start with SELECT, WITH, VALUES, PRAGMA, INSERT, UPDATE, DELETE, CREATE, ALTER or DROP.`,
  );
}

/** The kind of the data statement whose verb is at `i` (after any WITH clause). */
function mainKind(tokens: readonly SqlToken[], i: number): StatementKind {
  const head = tokens[i];
  const verb = head?.kind === 'word' ? head.value : '';
  if (verb === 'SELECT' || verb === 'VALUES') return 'read';
  if (verb === 'INSERT' || verb === 'REPLACE') return 'write';
  if (verb === 'UPDATE' || verb === 'DELETE')
    return hasTopLevel(tokens, i + 1, 'WHERE') ? 'write' : 'destructive';
  throw new UserError(
    'After its WITH clause the statement must be a SELECT, VALUES, INSERT, UPDATE or DELETE.',
  );
}

/**
 * Index of the statement after `WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (…), …`.
 * The clause is read by its grammar, not searched for a keyword: a CTE may be named `replace`, and
 * a keyword inside a CTE body is not the statement's verb.
 */
function afterWith(tokens: readonly SqlToken[], i: number): number {
  const malformed = new UserError('The WITH clause is not well formed; write it as WITH name AS (SELECT …).');
  let j = i + 1;
  if (isKeyword(tokens[j], 'RECURSIVE')) j++;
  for (;;) {
    if (identifierName(tokens[j]) === undefined) throw malformed;
    j++;
    if (isPunct(tokens[j], '(')) j = skipParens(tokens, j);
    if (j < 0 || !isKeyword(tokens[j], 'AS')) throw malformed;
    j++;
    if (isKeyword(tokens[j], 'NOT')) j++;
    if (isKeyword(tokens[j], 'MATERIALIZED')) j++;
    if (!isPunct(tokens[j], '(')) throw malformed;
    j = skipParens(tokens, j);
    if (j < 0) throw malformed;
    if (!isPunct(tokens[j], ',')) return j;
    j++;
  }
}

/** True when the bare keyword appears outside every parenthesis from `from` on. */
function hasTopLevel(tokens: readonly SqlToken[], from: number, keyword: string): boolean {
  let depth = 0;
  for (let j = from; j < tokens.length; j++) {
    const token = tokens[j];
    if (isPunct(token, '(')) depth++;
    else if (isPunct(token, ')')) depth--;
    else if (depth === 0 && isKeyword(token, keyword)) return true;
  }
  return false;
}

/** Reads `PRAGMA [schema.]name [= value | (value)]`; anything else after the name is refused. */
function readPragma(tokens: readonly SqlToken[], i: number): PragmaUse {
  let j = i + 1;
  let name = identifierName(tokens[j]);
  if (name === undefined) throw new UserError('PRAGMA needs a name, such as PRAGMA table_info(t).');
  let schema: string | undefined;
  j++;
  if (isPunct(tokens[j], '.')) {
    schema = name;
    name = identifierName(tokens[j + 1]);
    if (name === undefined) throw new UserError('PRAGMA needs a name after the schema.');
    j += 2;
  }
  if (j === tokens.length)
    return schema === undefined ? { name, hasArgument: false } : { schema, name, hasArgument: false };
  const value = isPunct(tokens[j], '=') ? j + 1 : isPunct(tokens[j], '(') ? j : -1;
  const close = value === j ? skipParens(tokens, j) : tokens.length;
  if (value < 0 || close !== tokens.length || close - value < 1) {
    throw new UserError(`PRAGMA ${shownName(name)} is followed by text that is not a value.`);
  }
  return schema === undefined ? { name, hasArgument: true } : { schema, name, hasArgument: true };
}
