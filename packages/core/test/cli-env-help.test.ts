import { describe, expect, it } from 'vitest';
import { helpText } from '../src/runner/cli.js';
import { envName } from '../src/runner/index.js';
import { SERVER } from './cli-env-kit.js';

describe('helpText and the environment', () => {
  const text = helpText(
    'mcpkit-files',
    { name: '@mcpkit/files', version: '1.2.3' },
    '[options] <dir>...',
    SERVER,
  );
  const lines = text.split('\n');

  /** The line of a flag and the one after it, where a long row puts its variable. */
  function rowOf(flag: string): string {
    const at = lines.findIndex((line) => new RegExp(`--${flag}\\b`).test(line));
    expect(at, flag).toBeGreaterThan(-1);
    const next = lines[at + 1] ?? '';
    return /^\s+\[MCPKIT_/.test(next) ? `${lines[at]}\n${next}` : (lines[at] ?? '');
  }

  it('shows every common and server flag’s variable beside it', () => {
    for (const flag of [
      'transport',
      'host',
      'port',
      'allowed-origin',
      'allowed-host',
      'log-level',
      'read-only',
      'page-size',
      'output-limit',
      ...Object.keys(SERVER),
    ]) {
      expect(rowOf(flag)).toContain(`[${envName(flag)}`);
    }
    expect(rowOf('allowed-origin')).toContain('[MCPKIT_ALLOWED_ORIGIN, comma-separated]');
    expect(rowOf('repository')).toContain('[MCPKIT_REPOSITORY, comma-separated]');
  });

  it('shows no variable for --help and --version', () => {
    expect(rowOf('help')).not.toContain('MCPKIT_');
    expect(rowOf('version')).not.toContain('MCPKIT_');
  });

  it('says how variables are read, and names the older output-limit variable', () => {
    expect(text).toContain('true, false, 1 or 0');
    expect(text).toContain('comma-separated list');
    expect(text).toContain('the command line wins');
    expect(text).toMatch(/MCPKIT_MAX_OUTPUT_BYTES\s+older name of MCPKIT_OUTPUT_LIMIT/);
  });

  it('keeps a row with its variable within 100 columns', () => {
    for (const line of lines.filter((l) => l.includes('[MCPKIT_')))
      expect(line.length).toBeLessThanOrEqual(100);
  });
});
