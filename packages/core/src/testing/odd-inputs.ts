/**
 * A sweep of odd inputs for a server's tests: the confused user's and the attacker's arguments,
 * made from each tool's input schema, and the checks every answer must pass. The sweep's engine: argument sets made from a tool's input schema (each argument
 * varied over a battery of odd values while the others keep a sensible base), the answer of any
 * request caught whether it is a result or a protocol error, and the checks every answer must pass:
 * no "internal error", no stack trace, no raw errno text, no host path the caller did not send, and
 * an error that reads as one short message.
 */
import { escapeControlChars, sanitizeForMessage } from '../roots/index.js';

/** A tool as tools/list shows it. */
export interface OddInputTool {
  name: string;
  inputSchema: { properties?: Record<string, OddInputSchema>; required?: string[] };
  annotations?: { readOnlyHint?: boolean };
}

/** The parts of a JSON OddInputSchema the sweep reads. */
export interface OddInputSchema {
  type?: string;
  enum?: unknown[];
  items?: OddInputSchema;
  properties?: Record<string, OddInputSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxItems?: number;
}

/** One request of the sweep: what it is called in an odd-input report, and its arguments. */
export interface OddInputCase {
  label: string;
  args: Record<string, unknown>;
}

/** The odd values for one argument, by its name and schema; `undefined` leaves it to the defaults. */
export type OddInputBattery = (name: string, schema: OddInputSchema) => unknown[] | undefined;

/** Strings a confused user or an attacker may send anywhere a string goes. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n ',
  'x'.repeat(10_000),
  'a\u0000b',
  'a\u0001b\u001b[31mred\u007f',
  'line one\nline two',
  '\u202egnp.txt',
  'e\u0301\u00e9\ufeff\u200b',
  '\ud800',
  '😀'.repeat(50),
  '-',
  '--help',
  '-rf',
  '..',
  '%00%2e%2e',
  '$' + '{HOME}$(id)`id`',
  "'; DROP TABLE x; --",
  '[',
  '(',
  '\\',
];

/** Cursors that do not belong: garbage, empty, huge, and `foreign` ones (made for another call) as sent, cut short and edited. */
export function oddCursors(foreign: readonly string[] = []): string[] {
  const edited = foreign.flatMap((c) => [c.slice(0, -3), `${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`]);
  return ['garbage', 'eyJ9', 'e30', 'x'.repeat(10_000), '', ...foreign, ...edited];
}

/** Numbers around and beyond every limit a schema may have. */
function oddNumbers(s: OddInputSchema): number[] {
  const edges = [s.minimum, s.maximum, s.exclusiveMinimum].filter((n): n is number => n !== undefined);
  return [
    ...new Set([
      -1,
      0,
      1,
      2,
      1.5,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
      1e300,
      ...edges.flatMap((e) => [e - 1, e, e + 1]),
    ]),
  ];
}

/** The default battery for a schema's type: strings, numbers, booleans, arrays and objects. */
function defaultOdd(name: string, s: OddInputSchema, battery: OddInputBattery): unknown[] {
  if (s.enum) return [...s.enum, 'no-such-choice'];
  switch (s.type) {
    case 'string':
      return [...ODD_STRINGS];
    case 'integer':
    case 'number':
      return oddNumbers(s);
    case 'boolean':
      return [true, false];
    case 'array': {
      const item = s.items ?? {};
      const items = battery(name, item) ?? defaultOdd(name, item, battery);
      const many = Array.from({ length: (s.maxItems ?? 100) + 1 }, () => items[0]);
      return [[], many, ...items.map((v) => [v]), items.slice(0, 5)];
    }
    case 'object': {
      const props = s.properties ?? {};
      const base = Object.fromEntries(Object.keys(props).map((k) => [k, '']));
      const varied = Object.entries(props).flatMap(([k, p]) =>
        (battery(k, p) ?? defaultOdd(k, p, battery)).map((v) => ({ ...base, [k]: v })),
      );
      return [{}, base, ...varied];
    }
    default:
      return [null, 'text', 0];
  }
}

/** A short, readable label for a value in an odd-input report. */
export function oddInputLabel(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 40)}…(${json.length} chars)` : json;
}

/**
 * Every argument set of a tool: `base` alone, then each argument of the schema (and each one the
 * base leaves out) varied over the battery, and the required ones left out one at a time.
 */
export function oddInputCases(
  tool: OddInputTool,
  base: Record<string, unknown>,
  battery: OddInputBattery,
): OddInputCase[] {
  const props = tool.inputSchema.properties ?? {};
  const cases: OddInputCase[] = [{ label: 'base', args: base }];
  for (const [name, schema] of Object.entries(props)) {
    for (const value of battery(name, schema) ?? defaultOdd(name, schema, battery)) {
      cases.push({ label: `${name}=${oddInputLabel(value)}`, args: { ...base, [name]: value } });
    }
  }
  for (const name of tool.inputSchema.required ?? []) {
    const { [name]: _left, ...rest } = base;
    cases.push({ label: `without ${name}`, args: rest });
  }
  cases.push({ label: 'unknown argument', args: { ...base, noSuchArgument: 1 } });
  return cases;
}

/** What came back for one request: a result (possibly an error result) or a protocol error. */
export interface OddInputAnswer {
  isError: boolean;
  text: string;
  protocolError: boolean;
}

/** The answer of a tool call, a prompt, a read: its text, whether it succeeded or threw. */
export async function oddInputAnswer(request: Promise<unknown>): Promise<OddInputAnswer> {
  try {
    const result = (await request) as { isError?: boolean; content?: unknown; contents?: unknown };
    return { isError: result.isError === true, text: allTexts(result).join('\n'), protocolError: false };
  } catch (error) {
    return {
      isError: true,
      text: error instanceof Error ? error.message : String(error),
      protocolError: true,
    };
  }
}

// Every `text` field of a result (resources' contents, prompts' messages, further content blocks).
function allTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allTexts);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'text' && typeof v === 'string' ? [v] : allTexts(v),
  );
}

/** The strings inside a value, deeply: what the caller sent, and may be echoed back. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

// The protocol's own words before a thrown error's message.
const PROTOCOL_PREFIX = /^MCP error -?\d+: /;
// Characters that make a quoted input read differently (bidi) or break a line: echoed, they are escaped.
const UNSAFE_ECHO = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// Longer than any sentence of the server's own: a name built from the input (not the input as sent) left uncut.
const MAX_MESSAGE = 1000;
const RAW_ERRNO =
  /\b(E[A-Z]{3,}): [a-z]|\b(ENOENT|ENOTDIR|EISDIR|ELOOP|ENAMETOOLONG|EACCES|EPERM|EEXIST|EINVAL)\b/;

/**
 * What is wrong with an answer, as sentences for an odd-input report (empty when nothing is): `hosts` are
 * absolute folders no answer may name beyond what the caller sent; `sent` is what the caller sent.
 */
export function oddInputProblems(answer: OddInputAnswer, sent: unknown, hosts: readonly string[]): string[] {
  const problems: string[] = [];
  const text = answer.text;
  if (/internal error/i.test(text)) problems.push('says "internal error"');
  if (/\n\s+at |\bat .+:\d+:\d+\)?$/m.test(text)) problems.push('carries a stack trace');
  if (answer.isError && RAW_ERRNO.test(text)) problems.push('carries a raw errno message');
  if (/^\w+ failed\.?$/m.test(text)) problems.push('says only that something failed');
  if (answer.isError && UNSAFE_ECHO.test(text)) problems.push('echoes a control or bidi character unescaped');
  if (answer.isError) {
    const inputs = stringsIn(sent).flatMap((s) => [s, escapeControlChars(s), sanitizeForMessage(s)]);
    for (const host of hosts) {
      for (const found of pathsUnder(text, host)) {
        if (!inputs.some((i) => i.includes(found))) problems.push(`names a host path: ${found}`);
      }
    }
    const own = inputs.reduce((t, i) => (i.length > 2 ? t.split(i).join('…') : t), text);
    const message = own.replace(PROTOCOL_PREFIX, '');
    if (message.trim() === '') problems.push('is an empty error');
    if (message.length > MAX_MESSAGE) problems.push(`is ${message.length} characters long besides the input`);
    if (!answer.protocolError && message.split('\n').length > 3) problems.push('is more than one message');
  }
  return problems;
}

// Occurrences of `host` (and what follows it up to a quote or space) in `text`, trailing dots cut.
function pathsUnder(text: string, host: string): string[] {
  const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = text.match(new RegExp(`${escaped}[^\\s"'\\]]*`, 'g')) ?? [];
  return found.map((p) => p.replace(/[….,;:)]+$/u, ''));
}

/** One oddInputReport line per problem of one answer. */
export function oddInputReport(label: string, answer: OddInputAnswer, problems: readonly string[]): string[] {
  const said = answer.text.length > 300 ? `${answer.text.slice(0, 300)}…` : answer.text;
  return problems.map((p) => `${label}: ${p} — ${JSON.stringify(said)}`);
}
