import { describe, expect, it } from 'vitest';
import { type ExtraOption, helpText, parseCommandLine, TOKEN_ENV, UsageError } from '../src/runner/cli.js';

function usageError(argv: string[], extra?: Record<string, ExtraOption>): UsageError {
  try {
    parseCommandLine(argv, extra);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`parseCommandLine(${JSON.stringify(argv)}) did not fail`);
}

/** One sentence: a capital letter first, one full stop at the very end, no line breaks. */
const ONE_SENTENCE = /^[-A-Z'][^\n]*[^.\n]\.$/;

describe('parseCommandLine', () => {
  it('has defaults for everything', () => {
    const parsed = parseCommandLine([]);
    expect(parsed.help).toBe(false);
    expect(parsed.version).toBe(false);
    expect(parsed.positionals).toEqual([]);
    expect(parsed.common).toEqual({
      transport: 'stdio',
      host: '127.0.0.1',
      port: 3000,
      allowedOrigins: [],
      allowedHosts: [],
      logLevel: 'info',
      readOnly: false,
      pageSize: undefined,
      outputLimitBytes: undefined,
    });
  });

  it('reads every common flag', () => {
    const parsed = parseCommandLine([
      '--transport',
      'http',
      '--host',
      '0.0.0.0',
      '--port=8080',
      '--allowed-origin',
      'https://a.example',
      '--allowed-host',
      'mcp.internal',
      '--log-level',
      'debug',
      '--read-only',
      '--page-size',
      '25',
      '--output-limit',
      '4096',
      'dir-one',
      'dir-two',
    ]);
    expect(parsed.common).toEqual({
      transport: 'http',
      host: '0.0.0.0',
      port: 8080,
      allowedOrigins: ['https://a.example'],
      allowedHosts: ['mcp.internal'],
      logLevel: 'debug',
      readOnly: true,
      pageSize: 25,
      outputLimitBytes: 4096,
    });
    expect(parsed.positionals).toEqual(['dir-one', 'dir-two']);
  });

  it('reads --help, -h, --version and -v', () => {
    expect(parseCommandLine(['--help']).help).toBe(true);
    expect(parseCommandLine(['-h']).help).toBe(true);
    expect(parseCommandLine(['--version']).version).toBe(true);
    expect(parseCommandLine(['-v']).version).toBe(true);
  });

  it('collects repeated --allowed-origin and --allowed-host in order', () => {
    const parsed = parseCommandLine([
      '--allowed-origin',
      'https://a.example',
      '--allowed-host',
      'one',
      '--allowed-origin=https://b.example',
      '--allowed-host',
      'two',
    ]);
    expect(parsed.common.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(parsed.common.allowedHosts).toEqual(['one', 'two']);
  });

  it('maps --log-level warn to warning and accepts the MCP level names', () => {
    expect(parseCommandLine(['--log-level', 'warn']).common.logLevel).toBe('warning');
    expect(parseCommandLine(['--log-level', 'warning']).common.logLevel).toBe('warning');
    expect(parseCommandLine(['--log-level', 'error']).common.logLevel).toBe('error');
  });

  it('accepts the edges of each number range', () => {
    expect(parseCommandLine(['--port', '0']).common.port).toBe(0);
    expect(parseCommandLine(['--port', '65535']).common.port).toBe(65_535);
    expect(parseCommandLine(['--page-size', '1']).common.pageSize).toBe(1);
    expect(parseCommandLine(['--page-size', '10000']).common.pageSize).toBe(10_000);
    expect(parseCommandLine(['--output-limit', '1024']).common.outputLimitBytes).toBe(1024);
  });

  it('refuses a bad transport with one sentence', () => {
    const error = usageError(['--transport', 'sse']);
    expect(error.message).toBe('--transport must be stdio or http.');
  });

  it('refuses a bad log level with one sentence', () => {
    expect(usageError(['--log-level', 'loud']).message).toBe(
      '--log-level must be debug, info, warning or error.',
    );
  });

  it.each([['65536'], ['-1'], ['http'], ['80.5'], [''], [' '], ['0x50'], ['1e3']])(
    'refuses --port=%j with one sentence',
    (value) => {
      expect(usageError([`--port=${value}`]).message).toBe('--port must be a whole number from 0 to 65535.');
    },
  );

  it('refuses an empty port rather than reading it as 0 (a random port)', () => {
    expect(usageError(['--port', '']).message).toBe('--port must be a whole number from 0 to 65535.');
  });

  it('refuses a dash value given as a separate argument with one sentence', () => {
    const error = usageError(['--port', '-1']);
    expect(error.message).toMatch(ONE_SENTENCE);
    expect(error.message).toContain("'--port'");
  });

  it.each([['0'], ['10001'], ['ten'], ['1e9']])('refuses --page-size %j with one sentence', (value) => {
    expect(usageError(['--page-size', value]).message).toBe(
      '--page-size must be a whole number from 1 to 10000.',
    );
  });

  it('refuses an --output-limit outside what a stdio client can take', () => {
    for (const value of ['10', String(4 * 1024 * 1024 + 1)]) {
      expect(usageError(['--output-limit', value]).message).toBe(
        '--output-limit must be a size from 1024 to 4194304 bytes, such as 65536, 512k or 2m.',
      );
    }
    expect(parseCommandLine(['--output-limit', '4194304']).common.outputLimitBytes).toBe(4194304);
  });

  it('refuses an unknown flag with one sentence that names it', () => {
    const error = usageError(['--bogus']);
    expect(error.message).toMatch(ONE_SENTENCE);
    expect(error.message).toContain("'--bogus'");
    expect(error.message).not.toMatch(/To specify/);
  });

  it('refuses a flag that is missing its value with one sentence', () => {
    const error = usageError(['--port']);
    expect(error.message).toBe("Option '--port <value>' argument missing.");
  });

  it('refuses a value for a switch with one sentence', () => {
    const error = usageError(['--read-only=yes']);
    expect(error.message).toBe("Option '--read-only' does not take an argument.");
  });

  it('reads the server’s own flags next to the common ones', () => {
    const extra: Record<string, ExtraOption> = {
      root: { type: 'string', multiple: true, description: 'a directory to serve', valueName: 'dir' },
      'follow-symlinks': { type: 'boolean', description: 'follow links' },
    };
    const parsed = parseCommandLine(
      ['--root', '/a', '--follow-symlinks', '--root', '/b', '--read-only'],
      extra,
    );
    expect(parsed.values.root).toEqual(['/a', '/b']);
    expect(parsed.values['follow-symlinks']).toBe(true);
    expect(parsed.common.readOnly).toBe(true);
    // Without the extra definitions the same flag is unknown.
    expect(usageError(['--root', '/a']).message).toContain("'--root'");
  });
});

describe('helpText', () => {
  const extra: Record<string, ExtraOption> = {
    root: {
      type: 'string',
      multiple: true,
      description: 'a directory to serve (repeatable)',
      valueName: 'dir',
    },
    'follow-symlinks': { type: 'boolean', description: 'follow symbolic links inside roots' },
  };
  const text = helpText(
    'mcpkit-files',
    { name: '@mcpkit/files', version: '1.2.3', description: 'Files over MCP' },
    '[options] [dir...]',
    extra,
  );

  it('starts with name, version, description and usage', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('mcpkit-files 1.2.3 — Files over MCP');
    expect(lines).toContain('Usage: mcpkit-files [options] [dir...]');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('lists the server’s own options before the common ones', () => {
    expect(text).toMatch(/--root <dir>\s+a directory to serve \(repeatable\)/);
    expect(text).toMatch(/--follow-symlinks\s+follow symbolic links inside roots/);
    expect(text.indexOf('Options:')).toBeLessThan(text.indexOf('Common options:'));
    expect(text.indexOf('--root')).toBeLessThan(text.indexOf('Common options:'));
  });

  it('lists every common option', () => {
    for (const flag of [
      '--transport <stdio|http>',
      '--host <addr>',
      '--port <n>',
      '--allowed-origin <url>',
      '--allowed-host <name>',
      '--log-level <level>',
      '--read-only',
      '--page-size <n>',
      '--output-limit <size>',
      '-h, --help',
      '-v, --version',
    ]) {
      expect(text).toContain(flag);
    }
  });

  it('lists the environment variables', () => {
    expect(text).toContain('Environment:');
    expect(text).toMatch(new RegExp(`${TOKEN_ENV}\\s+bearer token`));
    expect(text).toMatch(/MCPKIT_STATE_KEY\s+shared secret \(>= 32 bytes\)/);
  });

  it('leaves out the Options section and the description when there are none', () => {
    const bare = helpText('bin', { name: 'x', version: '0.0.1' }, '[options]', {});
    expect(bare.split('\n')[0]).toBe('bin 0.0.1');
    expect(bare).not.toContain('\nOptions:');
    expect(bare).toContain('Common options:');
  });
});
