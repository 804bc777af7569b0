/**
 * The README's tools table, made from the tool definitions a server registers, so the table a
 * user reads is the list a client gets: name, what it does, and what it may change.
 */

/** What the table reads of a tool definition (the fields `defineTool` takes and clients are sent). */
export interface ToolSummary {
  name: string;
  title?: string;
  description?: string;
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** Words whose period never ends a sentence in a description. */
const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|cf|vs|etc)$/i;

/**
 * The first sentence of `text`: up to the first `.`, `!` or `?` that ends the text or is followed
 * by a space, outside code spans and not after an abbreviation (so `e.g. "x"` and `1.5 MB` stay
 * inside). A sentence may start with a lower-case identifier (`contains / not_contains keep …`).
 */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  let inCode = false;
  for (let i = 0; i < flat.length; i++) {
    const ch = flat[i];
    if (ch === '`') inCode = !inCode;
    if (inCode || (ch !== '.' && ch !== '!' && ch !== '?')) continue;
    if (i + 1 < flat.length && flat[i + 1] !== ' ') continue;
    if (ch === '.' && ABBREVIATIONS.test(flat.slice(0, i))) continue;
    return flat.slice(0, i + 1);
  }
  return flat;
}

/** A table cell: one line, with `|` escaped so it cannot end the cell. */
export function escapeCell(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/**
 * Plain text (a description is written for a model, not as markdown) made to render as itself:
 * `<` cannot open an HTML tag, `*` and a `_` at a word's edge cannot start emphasis. A `_` inside
 * a word (`read_file`) never does, so names stay readable in the source.
 */
export function plainText(text: string): string {
  return text.replace(/[<*]/g, (ch) => `\\${ch}`).replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_');
}

type Effect = 'read-only' | 'writes' | 'destructive';

/**
 * What a tool may change, read the way the MCP spec defines the hints: `readOnlyHint` defaults to
 * false and `destructiveHint` to true, so a tool that says nothing is counted as destructive.
 */
export function effectOf(tool: ToolSummary): Effect {
  if (tool.annotations?.readOnlyHint === true) return 'read-only';
  return tool.annotations?.destructiveHint === false ? 'writes' : 'destructive';
}

type Term = Effect | 'open world';

/** The legend, in the order its terms are explained. */
const LEGEND: Record<Term, string> = {
  'read-only': 'changes nothing',
  writes: 'makes changes, but overwrites and deletes nothing',
  destructive: 'may overwrite or delete',
  'open world': 'reaches systems beyond the data it was given, such as the internet',
};
const TERMS = Object.keys(LEGEND) as Term[];

/**
 * The markdown table, one row per tool in the order the server lists them, and a line explaining
 * each term the table uses. Open world is shown only where a tool sets `openWorldHint: true`:
 * the spec's default is true, but a tool that says nothing about it tells the reader nothing.
 */
export function renderToolsTable(tools: readonly ToolSummary[]): string {
  if (tools.length === 0) return 'This server has no tools.';
  const rows = tools.map((tool) => {
    const terms: Term[] = [effectOf(tool)];
    if (tool.annotations?.openWorldHint === true) terms.push('open world');
    const what = firstSentence(tool.description?.trim() ? tool.description : (tool.title ?? ''));
    // The name is shown as code, so a backtick in it could only break the cell.
    const name = escapeCell(tool.name).replace(/`/g, '');
    return { terms, line: `| \`${name}\` | ${escapeCell(plainText(what))} | ${terms.join(', ')} |` };
  });
  const used = TERMS.filter((term) => rows.some((row) => row.terms.includes(term)));
  const legend = used.map((term) => `${term}: ${LEGEND[term]}`).join('; ');
  return [
    '| tool | what it does | changes |',
    '|---|---|---|',
    ...rows.map((row) => row.line),
    '',
    `${legend.charAt(0).toUpperCase()}${legend.slice(1)}.`,
  ].join('\n');
}
