/**
 * Every flag of a bin, also from the environment: `--read-only` is `MCPKIT_READ_ONLY`, `--db` is
 * `MCPKIT_DB`. Hosts that start a server from a settings form (bundles, containers, CI) fill
 * variables, not argument lists, so each setting needs a variable with one predictable name.
 */
import { OUTPUT_LIMIT_ENV_ALIAS, outputLimitFromEnv } from '../limits/output-limit.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** The flag's shape as the environment reader needs it (a subset of parseArgs' option). */
interface FlagShape {
  type: 'string' | 'boolean';
  multiple?: boolean | undefined;
}

const PREFIX = 'MCPKIT_';

/** Flags that ask for something instead of setting it: a stray variable must not print help. */
export const NOT_FROM_ENV: ReadonlySet<string> = new Set(['help', 'version']);

/**
 * Variables with a meaning of their own (secrets, test plumbing) that no flag carries: never
 * reported as a misspelling.
 */
const KNOWN = new Set(['MCPKIT_TOKEN', 'MCPKIT_STATE_KEY', OUTPUT_LIMIT_ENV_ALIAS]);
const KNOWN_PREFIXES = ['MCPKIT_TEST_', 'MCPKIT_E2E_', 'MCPKIT_NODE'];

/**
 * The variable that carries a flag: `MCPKIT_` and the flag's name in capitals, dashes as
 * underscores.
 *
 * @example
 * ```ts
 * envName('read-only'); // 'MCPKIT_READ_ONLY'
 * envName('allowed-origin'); // 'MCPKIT_ALLOWED_ORIGIN'
 * ```
 */
export function envName(flag: string): string {
  return `${PREFIX}${flag.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** A value read from the environment, with the variable it came from (for error sentences). */
export interface EnvValue {
  variable: string;
  value: string | boolean | string[] | boolean[];
}

/** Raised for a variable whose value cannot be used; the caller turns it into a usage error. */
export class EnvValueError extends Error {}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

function parseBoolean(variable: string, raw: string): boolean {
  const word = raw.trim().toLowerCase();
  if (TRUE.has(word)) return true;
  if (FALSE.has(word)) return false;
  throw new EnvValueError(`${variable} must be true, false, 1 or 0.`);
}

/** `a, b,,c` → `['a', 'b', 'c']`: items trimmed, empty ones dropped. */
export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * The raw text of a flag's variable, and that variable's name. An empty or blank value counts as
 * unset: bundles pass '' for a setting the user left empty, and spaces alone never mean a value.
 */
function lookup(flag: string, env: Environment): { variable: string; raw: string } | undefined {
  // The output limit's older variable name is read where the limit itself is defined.
  if (flag === 'output-limit') {
    const found = outputLimitFromEnv(env);
    return found && { variable: found.name, raw: found.value };
  }
  const variable = envName(flag);
  const raw = env[variable];
  return raw === undefined || raw.trim() === '' ? undefined : { variable, raw };
}

/**
 * Reads the flag's variable: a boolean from true/false/1/0 (any case), a repeatable flag from a
 * comma-separated list, anything else as written. Undefined when the variable is unset or empty
 * (a list of nothing but commas and spaces is empty too). Throws {@link EnvValueError}.
 */
export function readFlagFromEnv(flag: string, shape: FlagShape, env: Environment): EnvValue | undefined {
  if (NOT_FROM_ENV.has(flag)) return undefined;
  const found = lookup(flag, env);
  if (found === undefined) return undefined;
  const { variable, raw } = found;
  if (shape.multiple) {
    const items = splitList(raw);
    if (items.length === 0) return undefined;
    return {
      variable,
      value: shape.type === 'boolean' ? items.map((item) => parseBoolean(variable, item)) : items,
    };
  }
  return { variable, value: shape.type === 'boolean' ? parseBoolean(variable, raw) : raw };
}

/** Edit distance counting a swap of two neighbours as one edit: names are short, a table is fine. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The closest name, when it is close enough to be a slip of the keyboard. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  const bare = (s: string) => s.slice(PREFIX.length);
  const squash = (s: string) => bare(s).replace(/_/g, '');
  let best: { name: string; score: number } | undefined;
  for (const candidate of candidates) {
    // A missing or extra underscore is the likeliest slip: it costs half an edit.
    const score = Math.min(
      distance(bare(name), bare(candidate)),
      distance(squash(name), squash(candidate)) + 0.5,
    );
    if (best === undefined || score < best.score) best = { name: candidate, score };
  }
  if (best === undefined) return undefined;
  // One slip in a short name, up to three in a long one: more than that is another word.
  const allowed = Math.min(3, Math.max(1, Math.floor(bare(best.name).length / 4)));
  return best.score <= allowed ? best.name : undefined;
}

/**
 * One sentence for each `MCPKIT_` variable that neither names a flag of this bin nor is one of
 * the variables with a meaning of their own: most likely a misspelt name whose setting is being
 * ignored.
 */
export function unknownVariables(flags: readonly string[], env: Environment, bin?: string): string[] {
  const usable = flags.filter((flag) => !NOT_FROM_ENV.has(flag)).map(envName);
  const named = new Set([...usable, ...KNOWN]);
  // Windows matches variable names whatever their case; elsewhere only the exact name is read.
  const fold = process.platform === 'win32' ? (s: string) => s.toUpperCase() : (s: string) => s;
  const who = bin ?? 'this server';
  const warnings: string[] = [];
  for (const key of Object.keys(env).sort()) {
    const name = fold(key);
    if (!name.startsWith(PREFIX) || named.has(name)) continue;
    if (KNOWN_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const flag = [...NOT_FROM_ENV].find((f) => envName(f) === name);
    if (flag !== undefined) {
      warnings.push(`${key} is not read from the environment; pass --${flag} instead.`);
      continue;
    }
    const near = closest(name, [...usable, ...KNOWN]);
    warnings.push(`${key} names no option of ${who}${near ? `; did you mean ${near}?` : '.'}`);
  }
  return warnings;
}
