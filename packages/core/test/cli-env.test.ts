import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ExtraOption, parseCommandLine, UsageError } from '../src/runner/cli.js';
import { envName } from '../src/runner/index.js';
import { SERVER } from './cli-env-kit.js';

type Env = Record<string, string>;

function usageError(argv: string[], env: Env, extra: Record<string, ExtraOption> = {}): string {
  try {
    parseCommandLine(argv, extra, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`parseCommandLine(${JSON.stringify(argv)}) with ${JSON.stringify(env)} did not fail`);
}

/** One sentence: a capital letter first, one full stop at the very end, no line breaks. */
const ONE_SENTENCE = /^[A-Z][^\n]*[^.\n][.?]$/;

describe('envName', () => {
  it('is MCPKIT_ and the flag in capitals, dashes as underscores', () => {
    expect(envName('read-only')).toBe('MCPKIT_READ_ONLY');
    expect(envName('allowed-origin')).toBe('MCPKIT_ALLOWED_ORIGIN');
    expect(envName('allow-sensitive')).toBe('MCPKIT_ALLOW_SENSITIVE');
    expect(envName('db')).toBe('MCPKIT_DB');
    expect(envName('max-media-bytes')).toBe('MCPKIT_MAX_MEDIA_BYTES');
  });
});

describe('parseCommandLine from the environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads every common flag from its variable', () => {
    const parsed = parseCommandLine(
      [],
      {},
      {
        MCPKIT_TRANSPORT: 'http',
        MCPKIT_HOST: '0.0.0.0',
        MCPKIT_PORT: '8080',
        MCPKIT_ALLOWED_ORIGIN: 'https://a.example',
        MCPKIT_ALLOWED_HOST: 'mcp.internal',
        MCPKIT_LOG_LEVEL: 'warn',
        MCPKIT_READ_ONLY: 'true',
        MCPKIT_PAGE_SIZE: '25',
        MCPKIT_OUTPUT_LIMIT: '4096',
      },
    );
    expect(parsed.common).toEqual({
      transport: 'http',
      host: '0.0.0.0',
      port: 8080,
      allowedOrigins: ['https://a.example'],
      allowedHosts: ['mcp.internal'],
      logLevel: 'warning',
      readOnly: true,
      pageSize: 25,
      outputLimitBytes: 4096,
    });
    expect(parsed.sources).toMatchObject({ port: 'MCPKIT_PORT', 'read-only': 'MCPKIT_READ_ONLY' });
    expect(parsed.warnings).toEqual([]);
  });

  it('reads the server’s own flags from their variables', () => {
    const parsed = parseCommandLine(['/data'], SERVER, {
      MCPKIT_ALLOW_SENSITIVE: '1',
      MCPKIT_MAX_MEDIA_BYTES: '2048',
      MCPKIT_REPOSITORY: '/repo/a,/repo/b',
      MCPKIT_DB: '/data/shop.db',
      MCPKIT_MODE: 'rich',
    });
    expect(parsed.values).toMatchObject({
      'allow-sensitive': true,
      'max-media-bytes': '2048',
      repository: ['/repo/a', '/repo/b'],
      db: '/data/shop.db',
      // A variable overrides a flag's built-in default, as the flag itself would.
      mode: 'rich',
    });
    expect(parsed.sources['max-media-bytes']).toBe('MCPKIT_MAX_MEDIA_BYTES');
    expect(parsed.positionals).toEqual(['/data']);
  });

  it('reads process.env when no environment is passed', () => {
    vi.stubEnv('MCPKIT_READ_ONLY', 'true');
    vi.stubEnv('MCPKIT_PORT', '4100');
    const parsed = parseCommandLine([]);
    expect(parsed.common.readOnly).toBe(true);
    expect(parsed.common.port).toBe(4100);
  });

  it('lets the command line win, even over a variable it could not use', () => {
    const env = { MCPKIT_PORT: 'not-a-port', MCPKIT_READ_ONLY: 'false', MCPKIT_DB: '/env.db' };
    const parsed = parseCommandLine(['--port', '8080', '--read-only', '--db', '/cli.db'], SERVER, env);
    expect(parsed.common.port).toBe(8080);
    expect(parsed.common.readOnly).toBe(true);
    expect(parsed.values.db).toBe('/cli.db');
    expect(parsed.sources).toMatchObject({ port: '--port', 'read-only': '--read-only', db: '--db' });
  });

  it('lets one command-line value of a repeatable flag replace the variable’s whole list', () => {
    const env = { MCPKIT_ALLOWED_ORIGIN: 'https://b.example,https://c.example' };
    const parsed = parseCommandLine(['--allowed-origin', 'https://a.example'], {}, env);
    expect(parsed.common.allowedOrigins).toEqual(['https://a.example']);
    expect(parseCommandLine([], {}, env).common.allowedOrigins).toEqual([
      'https://b.example',
      'https://c.example',
    ]);
  });

  it('splits a repeatable flag’s variable on commas, trimming items and dropping empty ones', () => {
    const parsed = parseCommandLine([], SERVER, {
      MCPKIT_ALLOWED_HOST: ' one , ,two,, ',
      MCPKIT_REPOSITORY: ',  ,',
    });
    expect(parsed.common.allowedHosts).toEqual(['one', 'two']);
    expect(parsed.values.repository).toBeUndefined();
    expect(parsed.sources.repository).toBeUndefined();
  });

  it('treats an empty or blank variable as unset', () => {
    const parsed = parseCommandLine([], SERVER, {
      MCPKIT_PORT: '',
      MCPKIT_READ_ONLY: '',
      MCPKIT_TRANSPORT: '',
      MCPKIT_PAGE_SIZE: '   ',
      MCPKIT_OUTPUT_LIMIT: '',
      MCPKIT_DB: '',
      MCPKIT_ALLOW_SENSITIVE: ' ',
    });
    expect(parsed.common).toMatchObject({
      transport: 'stdio',
      port: 3000,
      readOnly: false,
      pageSize: undefined,
      outputLimitBytes: undefined,
    });
    expect(parsed.values.db).toBeUndefined();
    expect(parsed.values['allow-sensitive']).toBeUndefined();
    expect(parsed.sources).toEqual({});
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['1', true],
    [' true ', true],
    ['false', false],
    ['FALSE', false],
    ['0', false],
  ])('reads MCPKIT_READ_ONLY=%j as %s', (value, expected) => {
    expect(parseCommandLine([], {}, { MCPKIT_READ_ONLY: value }).common.readOnly).toBe(expected);
  });

  it.each([['maybe'], ['yes'], ['on'], ['2'], ['t']])(
    'refuses MCPKIT_READ_ONLY=%j with one sentence',
    (value) => {
      const message = usageError([], { MCPKIT_READ_ONLY: value });
      expect(message).toBe('MCPKIT_READ_ONLY must be true, false, 1 or 0.');
      expect(message).toMatch(ONE_SENTENCE);
    },
  );

  it('refuses a wrong boolean of a server flag, naming its variable', () => {
    expect(usageError([], { MCPKIT_ALLOW_SENSITIVE: 'sure' }, SERVER)).toBe(
      'MCPKIT_ALLOW_SENSITIVE must be true, false, 1 or 0.',
    );
  });

  it('names the variable, not the flag, when a number from it is wrong', () => {
    expect(usageError([], { MCPKIT_PORT: 'http' })).toBe(
      'MCPKIT_PORT must be a whole number from 0 to 65535.',
    );
    expect(usageError([], { MCPKIT_PORT: '65536' })).toBe(
      'MCPKIT_PORT must be a whole number from 0 to 65535.',
    );
    expect(usageError([], { MCPKIT_PAGE_SIZE: '0' })).toBe(
      'MCPKIT_PAGE_SIZE must be a whole number from 1 to 10000.',
    );
    // The same mistake on the command line still names the flag.
    expect(usageError(['--port', 'http'], {})).toBe('--port must be a whole number from 0 to 65535.');
  });

  it('names the variable when a transport or log level from it is wrong', () => {
    expect(usageError([], { MCPKIT_TRANSPORT: 'sse' })).toBe('MCPKIT_TRANSPORT must be stdio or http.');
    expect(usageError([], { MCPKIT_LOG_LEVEL: 'loud' })).toBe(
      'MCPKIT_LOG_LEVEL must be debug, info, warning or error.',
    );
  });

  it('never reads --help or --version from the environment', () => {
    const parsed = parseCommandLine([], {}, { MCPKIT_HELP: 'true', MCPKIT_VERSION: '1' });
    expect(parsed.help).toBe(false);
    expect(parsed.version).toBe(false);
    expect(parsed.warnings).toEqual([
      'MCPKIT_HELP is not read from the environment; pass --help instead.',
      'MCPKIT_VERSION is not read from the environment; pass --version instead.',
    ]);
  });
});

describe('the output limit from the environment', () => {
  it('takes sizes with units from MCPKIT_OUTPUT_LIMIT and from --output-limit alike', () => {
    expect(parseCommandLine([], {}, { MCPKIT_OUTPUT_LIMIT: '512k' }).common.outputLimitBytes).toBe(524_288);
    expect(parseCommandLine(['--output-limit', '2m'], {}, {}).common.outputLimitBytes).toBe(2_097_152);
  });

  it('reads the older MCPKIT_MAX_OUTPUT_BYTES when MCPKIT_OUTPUT_LIMIT is unset, and never warns about it', () => {
    const old = parseCommandLine([], {}, { MCPKIT_MAX_OUTPUT_BYTES: '64k' });
    expect(old.common.outputLimitBytes).toBe(65_536);
    expect(old.sources['output-limit']).toBe('MCPKIT_MAX_OUTPUT_BYTES');
    expect(old.warnings).toEqual([]);
    const both = { MCPKIT_OUTPUT_LIMIT: '8192', MCPKIT_MAX_OUTPUT_BYTES: '64k' };
    expect(parseCommandLine([], {}, both).common.outputLimitBytes).toBe(8192);
    expect(parseCommandLine(['--output-limit', '4096'], {}, both).common.outputLimitBytes).toBe(4096);
    // An empty new name does not hide the old one: empty is unset.
    expect(
      parseCommandLine([], {}, { MCPKIT_OUTPUT_LIMIT: '', MCPKIT_MAX_OUTPUT_BYTES: '2048' }).common
        .outputLimitBytes,
    ).toBe(2048);
  });

  it('names whichever variable held an unusable size', () => {
    expect(usageError([], { MCPKIT_OUTPUT_LIMIT: 'lots' })).toBe(
      'MCPKIT_OUTPUT_LIMIT must be a size from 1024 to 4194304 bytes, such as 65536, 512k or 2m.',
    );
    expect(usageError([], { MCPKIT_MAX_OUTPUT_BYTES: '10' })).toBe(
      'MCPKIT_MAX_OUTPUT_BYTES must be a size from 1024 to 4194304 bytes, such as 65536, 512k or 2m.',
    );
  });
});

describe('warnings about MCPKIT_ variables', () => {
  const warningsOf = (env: Env, extra: Record<string, ExtraOption> = SERVER, bin?: string) =>
    parseCommandLine([], extra, env, bin).warnings;

  it('reports a misspelt variable with the name it most likely meant, and ignores its value', () => {
    const parsed = parseCommandLine([], SERVER, { MCPKIT_READONLY: 'true' }, 'mcpkit-filesystem');
    expect(parsed.common.readOnly).toBe(false);
    expect(parsed.warnings).toEqual([
      'MCPKIT_READONLY names no option of mcpkit-filesystem; did you mean MCPKIT_READ_ONLY?',
    ]);
    expect(warningsOf({ MCPKIT_PROT: '80' })).toEqual([
      'MCPKIT_PROT names no option of this server; did you mean MCPKIT_PORT?',
    ]);
    expect(warningsOf({ MCPKIT_ALLOWED_ORIGINS: 'x' })).toEqual([
      'MCPKIT_ALLOWED_ORIGINS names no option of this server; did you mean MCPKIT_ALLOWED_ORIGIN?',
    ]);
    expect(warningsOf({ MCPKIT_ALLOW_SENSITVE: '1' })).toEqual([
      'MCPKIT_ALLOW_SENSITVE names no option of this server; did you mean MCPKIT_ALLOW_SENSITIVE?',
    ]);
    expect(warningsOf({ MCPKIT_STATEKEY: 'k' })).toEqual([
      'MCPKIT_STATEKEY names no option of this server; did you mean MCPKIT_STATE_KEY?',
    ]);
  });

  it('makes no suggestion when nothing is close', () => {
    expect(warningsOf({ MCPKIT_COLOUR_SCHEME: 'dark' }, {}, 'mcpkit-git')).toEqual([
      'MCPKIT_COLOUR_SCHEME names no option of mcpkit-git.',
    ]);
  });

  it('reports a variable of a flag this bin does not have', () => {
    expect(warningsOf({ MCPKIT_DB: '/shop.db' }, {}, 'mcpkit-filesystem')).toEqual([
      'MCPKIT_DB names no option of mcpkit-filesystem.',
    ]);
    expect(warningsOf({ MCPKIT_DB: '/shop.db' })).toEqual([]);
  });

  it('stays quiet about the variables with a meaning of their own and about other programs’ variables', () => {
    expect(
      warningsOf({
        MCPKIT_TOKEN: 'secret',
        MCPKIT_STATE_KEY: 'k'.repeat(32),
        MCPKIT_MAX_OUTPUT_BYTES: '2048',
        MCPKIT_TEST_JOURNAL: '/tmp/j',
        MCPKIT_NODE22: '/opt/node22/bin/node',
        MCPKIT_E2E_RUN: '1',
        HOME: '/home/me',
        READ_ONLY: 'true',
      }),
    ).toEqual([]);
  });

  it('says each warning in one sentence, one per variable, in a stable order', () => {
    const warnings = warningsOf({ MCPKIT_ZZZ: '1', MCPKIT_READONLY: '1', MCPKIT_PORTS: '1' });
    expect(warnings.map((w) => w.split(' ')[0])).toEqual(['MCPKIT_PORTS', 'MCPKIT_READONLY', 'MCPKIT_ZZZ']);
    for (const warning of warnings) expect(warning).toMatch(ONE_SENTENCE);
  });
});
