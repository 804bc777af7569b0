import { type ParseArgsConfig, parseArgs } from 'node:util';
import { errorMessage } from '../errors/index.js';
import { MAX_OUTPUT_LIMIT_BYTES, MIN_OUTPUT_LIMIT_BYTES } from '../limits/output-limit.js';
import { isLogLevel, type LogLevel } from '../logging/logger.js';
import type { PackageInfo } from '../server/package-info.js';

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

const COMMON: Record<string, ExtraOption> = {
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
    description: 'bytes of text one result may carry (default 1048576)',
    valueName: 'n',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', short: 'v', description: 'print the version' },
};

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  // Digits only: Number('') and Number(' ') are 0, and '0x50' or '1e3' are not what anyone typed.
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}.`);
  return n;
}

export interface ParsedCommandLine {
  help: boolean;
  version: boolean;
  common: CommonOptions;
  positionals: string[];
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
}

/** Parses argv into the common options, the server's own flags and positionals. Strict: unknown flags fail. */
export function parseCommandLine(argv: string[], extra: Record<string, ExtraOption> = {}): ParsedCommandLine {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...COMMON, ...extra },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // node:util's messages may run to several lines and sentences: keep the first, which names the problem.
    const message = errorMessage(error);
    const first = (message.split('\n')[0] ?? '').replace(/\. To specify.*$/s, '.');
    throw new UsageError(/[.?!]$/.test(first) ? first : `${first}.`);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const transport = (v.transport as string | undefined) ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http')
    throw new UsageError('--transport must be stdio or http.');
  const level = (v['log-level'] as string | undefined) ?? 'info';
  const logLevel = level === 'warn' ? 'warning' : level;
  if (!isLogLevel(logLevel)) throw new UsageError('--log-level must be debug, info, warning or error.');
  return {
    help: v.help === true,
    version: v.version === true,
    positionals: parsed.positionals,
    values: v,
    common: {
      transport,
      host: (v.host as string | undefined) ?? '127.0.0.1',
      port: int('port', v.port as string | undefined, 0, 65_535) ?? 3000,
      allowedOrigins: (v['allowed-origin'] as string[] | undefined) ?? [],
      allowedHosts: (v['allowed-host'] as string[] | undefined) ?? [],
      logLevel,
      readOnly: v['read-only'] === true,
      pageSize: int('page-size', v['page-size'] as string | undefined, 1, 10_000),
      outputLimitBytes: int(
        'output-limit',
        v['output-limit'] as string | undefined,
        MIN_OUTPUT_LIMIT_BYTES,
        MAX_OUTPUT_LIMIT_BYTES,
      ),
    },
  };
}

/** The `--help` text: usage, the server's flags, then the common ones. */
export function helpText(
  bin: string,
  info: PackageInfo,
  usage: string,
  extra: Record<string, ExtraOption>,
): string {
  const row = (name: string, o: ExtraOption) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` <${o.valueName ?? 'value'}>` : ''}`;
    return `  ${flag.padEnd(34)} ${o.description}`;
  };
  const lines = [
    `${bin} ${info.version}${info.description ? ` — ${info.description}` : ''}`,
    '',
    `Usage: ${bin} ${usage}`,
    '',
  ];
  if (Object.keys(extra).length > 0) {
    lines.push('Options:', ...Object.entries(extra).map(([n, o]) => row(n, o)), '');
  }
  lines.push(
    'Common options:',
    ...Object.entries(COMMON).map(([n, o]) => row(n, o)),
    '',
    'Environment:',
    `  ${TOKEN_ENV.padEnd(34)} bearer token required of HTTP clients (required to bind beyond loopback)`,
    `  ${'MCPKIT_STATE_KEY'.padEnd(34)} shared secret (>= 32 bytes) for multi-round calls and cursors across replicas`,
  );
  return `${lines.join('\n')}\n`;
}
