/**
 * Duration flags in seconds, as every server reads them: digits only, a fraction only where the
 * flag allows one, inside its range, and a refusal in the server's own sentence naming where the
 * value came from (the flag, or its MCPKIT_ variable).
 */
import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../src/runner/cli.js';
import { secondsOption } from '../src/runner/seconds.js';

const FLAG = { wait: { type: 'string', description: 'seconds to wait', valueName: 'seconds' } } as const;
const refuse = (source: string, given: string) => `${source} got ${JSON.stringify(given)}.`;

function read(argv: string[], env: Record<string, string> = {}, decimals?: number): number | undefined {
  const cli = parseCommandLine(argv, FLAG, env);
  return secondsOption(cli, 'wait', { min: decimals ? 0.001 : 1, max: 3600, decimals }, refuse);
}

function refusal(argv: string[], env: Record<string, string> = {}, decimals?: number): string {
  try {
    read(argv, env, decimals);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('secondsOption', () => {
  it('is undefined when the flag was not given, and milliseconds when it was', () => {
    expect(read([])).toBeUndefined();
    expect(read(['--wait', '1'])).toBe(1000);
    expect(read(['--wait', '3600'])).toBe(3_600_000);
    expect(read([], { MCPKIT_WAIT: '30' })).toBe(30_000);
    expect(read(['--wait', '0.25'], {}, 3)).toBe(250);
    expect(read(['--wait', '0.001'], {}, 3)).toBe(1);
  });

  it('refuses what is not plain digits, a fraction where none is allowed, and values out of range', () => {
    for (const bad of ['0', '3601', '1.5', '1e3', '0x10', ' 30', '-5', '', 'ten']) {
      expect(refusal([`--wait=${bad}`])).toBe(`--wait got ${JSON.stringify(bad)}.`);
    }
    for (const bad of ['0', '0.0001', '3600.5', '1.', '.5']) {
      expect(refusal([`--wait=${bad}`], {}, 3)).toBe(`--wait got ${JSON.stringify(bad)}.`);
    }
  });

  it('names the variable when the value came from it', () => {
    expect(refusal([], { MCPKIT_WAIT: '1.5' })).toBe('MCPKIT_WAIT got "1.5".');
  });
});
