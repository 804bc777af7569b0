import { type ParseArgsConfig, parseArgs } from 'node:util';
import { errorMessage } from '../errors/index.js';
import { OUTPUT_LIMIT_ENV, OUTPUT_LIMIT_ENV_ALIAS, parseOutputLimit } from '../limits/output-limit.js';
import { isLogLevel, type LogLevel } from '../logging/logger.js';
import type { PackageInfo } from '../server/package-info.js';
import {
  type Environment,
  EnvValueError,
  envName,
  NOT_FROM_ENV,
  readFlagFromEnv,
  unknownVariables,
} from './env.js';

/** The flags every mcpkit bin understands. */
export interface CommonOptions {
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  logLevel: LogLevel;
  readOnly: boolean;
  pageSize: number | undefined;
  outputLimitBytes: number | undefined;
}

/** A server-specific flag, in `node:util` parseArgs form plus help text. */
export type ExtraOption = NonNullable<ParseArgsConfig['options']>[string] & {
  description: string;
  valueName?: string;
};

/** Raised for a command line that cannot be used; the runner prints it and exits with 2. */
export class UsageError extends Error {}

export const TOKEN_ENV = 'MCPKIT_TOKEN';

/** The flags every bin takes, for tools that describe a bin (bundles, registry metadata). */
export const COMMON_OPTIONS: Readonly<Record<string, ExtraOption>> = {
  transport: { type: 'string', description: 'stdio (default) or http', valueName: 'stdio|http' },
  host: { type: 'string', description: 'HTTP bind address (default 127.0.0.1)', valueName: 'addr' },
  port: { type: 'string', description: 'HTTP port (default 3000; 0 picks a free one)', valueName: 'n' },
  'allowed-origin': {
    type: 'string',
    multiple: true,
    description: 'an extra Origin allowed to call over HTTP (repeatable)',
    valueName: 'url',
  },
  'allowed-host': {
    type: 'string',
    multiple: true,
    description: 'an extra Host name accepted over HTTP (repeatable)',
    valueName: 'name',
  },
  'log-level': {
    type: 'string',
    description: 'debug|info|warning|error (default info; logs go to stderr)',
    valueName: 'level',
  },
  'read-only': { type: 'boolean', description: 'offer only tools that change nothing' },
  'page-size': {
    type: 'string',
    description: 'items per page of lists (default 100) and of paged tool results (default 10000)',
    valueName: 'n',
  },
  'output-limit': {
    type: 'string',
    description: 'bytes of text one result may carry: 65536, 512k, 2m (default 1m)',
    valueName: 'size',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
};

function int(label: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  // Digits only: Number('') and Number(' ') are 0, and '0x50' or '1e3' are not what anyone typed.
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${label} must be a whole number from ${min} to ${max}.`);
  return n;
}

function outputLimit(label: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseOutputLimit(value, label);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
}

export interface ParsedCommandLine {
  help: boolean;
  version: boolean;
  common: CommonOptions;
  positionals: string[];
  /** Every flag's value, whether from the command line or from its variable. */
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  /**
   * How each set value was given, for an error sentence that names what the user typed:
   * `--max-media-bytes` or `MCPKIT_MAX_MEDIA_BYTES`.
   */
  sources: Record<string, string>;
  /** One sentence each about the environment (a variable that names no option); log them, go on. */
  warnings: string[];
}

/** Parses argv with node:util, one clear sentence for anything it refuses. */
function parseArgv(argv: string[], options: Record<string, ExtraOption>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    // node:util's messages may run to several lines and sentences: keep the first, which names the problem.
    const message = errorMessage(error);
    const first = (message.split('\n')[0] ?? '').replace(/\. To specify.*$/s, '.');
    throw new UsageError(/[.?!]$/.test(first) ? first : `${first}.`);
  }
}

/**
 * Parses argv into the common options, the server's own flags and positionals. Strict: unknown
 * flags fail. Each flag not on the command line is read from its variable ({@link envName}):
 * booleans as true/false/1/0, repeatable flags as a comma-separated list, blank as unset. The
 * command line wins, and for a repeatable flag replaces the variable's whole list.
 */
export function parseCommandLine(
  argv: string[],
  extra: Record<string, ExtraOption> = {},
  env: Environment = process.env,
  bin?: string,
): ParsedCommandLine {
  const options = { ...COMMON_OPTIONS, ...extra };
  const parsed = parseArgv(argv, options);
  const v = { ...parsed.values } as ParsedCommandLine['values'];
  const sources: Record<string, string> = {};
  for (const token of parsed.tokens) if (token.kind === 'option') sources[token.name] = `--${token.name}`;
  for (const [name, option] of Object.entries(options)) {
    if (sources[name] !== undefined) continue;
    let found: ReturnType<typeof readFlagFromEnv>;
    try {
      found = readFlagFromEnv(name, option, env);
    } catch (error) {
      if (error instanceof EnvValueError) throw new UsageError(error.message);
      throw error;
    }
    if (found === undefined) continue;
    v[name] = found.value;
    sources[name] = found.variable;
  }
  const label = (name: string) => sources[name] ?? `--${name}`;

  const transport = (v.transport as string | undefined) ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http')
    throw new UsageError(`${label('transport')} must be stdio or http.`);
  const level = (v['log-level'] as string | undefined) ?? 'info';
  const logLevel = level === 'warn' ? 'warning' : level;
  if (!isLogLevel(logLevel))
    throw new UsageError(`${label('log-level')} must be debug, info, warning or error.`);
  return {
    help: v.help === true,
    version: v.version === true,
    positionals: parsed.positionals,
    values: v,
    sources,
    warnings: unknownVariables(Object.keys(options), env, bin),
    common: {
      transport,
      host: (v.host as string | undefined) ?? '127.0.0.1',
      port: int(label('port'), v.port as string | undefined, 0, 65_535) ?? 3000,
      allowedOrigins: (v['allowed-origin'] as string[] | undefined) ?? [],
      allowedHosts: (v['allowed-host'] as string[] | undefined) ?? [],
      logLevel,
      readOnly: v['read-only'] === true,
      pageSize: int(label('page-size'), v['page-size'] as string | undefined, 1, 10_000),
      outputLimitBytes: outputLimit(label('output-limit'), v['output-limit'] as string | undefined),
    },
  };
}

/** Help lines wider than this put the variable on a line of its own, under the description. */
const HELP_WIDTH = 100;
const FLAG_COLUMN = 34;

/** One option in `--help`: the flag, what it does, and the variable that can set it instead. */
function helpRow(name: string, o: ExtraOption): string[] {
  const value = o.type === 'string' ? ` <${o.valueName ?? 'value'}>` : '';
  const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${value}`;
  const line = `  ${flag.padEnd(FLAG_COLUMN)} ${o.description}`;
  if (NOT_FROM_ENV.has(name)) return [line];
  const variable = `[${envName(name)}${o.multiple ? ', comma-separated' : ''}]`;
  if (line.length + 1 + variable.length <= HELP_WIDTH) return [`${line} ${variable}`];
  return [line, `${' '.repeat(FLAG_COLUMN + 3)}${variable}`];
}

/** The `--help` text: usage, the server's flags, then the common ones, each with its variable. */
export function helpText(
  bin: string,
  info: PackageInfo,
  usage: string,
  extra: Record<string, ExtraOption>,
): string {
  const rows = (options: Record<string, ExtraOption>) =>
    Object.entries(options).flatMap(([n, o]) => helpRow(n, o));
  const env = (name: string, what: string) => `  ${name.padEnd(FLAG_COLUMN)} ${what}`;
  const lines = [
    `${bin} ${info.version}${info.description ? ` — ${info.description}` : ''}`,
    '',
    `Usage: ${bin} ${usage}`,
    '',
  ];
  if (Object.keys(extra).length > 0) lines.push('Options:', ...rows(extra), '');
  lines.push(
    'Common options:',
    ...rows(COMMON_OPTIONS),
    '',
    'Environment:',
    '  Each option can also be set by the variable in brackets beside it: true, false, 1 or 0 for a',
    '  switch, a comma-separated list for a repeatable option; a blank value counts as unset, and',
    '  the command line wins.',
    env(TOKEN_ENV, 'bearer token required of HTTP clients (required to bind beyond loopback)'),
    env('MCPKIT_STATE_KEY', 'shared secret (>= 32 bytes) for multi-round calls and cursors across replicas'),
    env(OUTPUT_LIMIT_ENV_ALIAS, `older name of ${OUTPUT_LIMIT_ENV}, read when that is unset`),
  );
  return `${lines.join('\n')}\n`;
}
