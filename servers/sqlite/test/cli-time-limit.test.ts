/**
 * `--time-limit <seconds>` (and `MCPKIT_TIME_LIMIT`): whole seconds from 1 to 3600 become the
 * runner's limit, 15 s when unset; anything else is refused at start with one sentence naming what
 * the user set, and the bin exits with 2 before it serves anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@mcpkit/core/logging';
import { type ParsedCommandLine, parseCommandLine, UsageError } from '@mcpkit/core/runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../src/cli.js';
import type { SqliteContext } from '../src/context.js';
import { type Fixture, makeFixture, refusal, witness } from './kit.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The server's command line as the bin parses it: these arguments, and only this environment. */
function commandLine(argv: string[], env: Record<string, string> = {}): ParsedCommandLine {
  return parseCommandLine(argv, cli.options, env, cli.bin);
}

let fixture: Fixture;
beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

/** The runner's time limit of the app this command line makes. */
async function limitOf(argv: string[], env: Record<string, string> = {}): Promise<number> {
  const app = await cli.create(commandLine(['--db', fixture.main, ...argv], env), silentLogger);
  try {
    return (app.context as SqliteContext).runner.timeLimitMs;
  } finally {
    await app.close();
  }
}

describe('--time-limit', () => {
  it('is 15 s unless set, and takes whole seconds from the flag or its variable', async () => {
    expect(await limitOf([])).toBe(15_000);
    expect(await limitOf(['--time-limit', '1'])).toBe(1_000);
    expect(await limitOf(['--time-limit=600'])).toBe(600_000);
    expect(await limitOf(['--time-limit', '3600'])).toBe(3_600_000);
    expect(await limitOf([], { MCPKIT_TIME_LIMIT: '45' })).toBe(45_000);
    // The command line wins over the variable; a blank variable is unset.
    expect(await limitOf(['--time-limit', '30'], { MCPKIT_TIME_LIMIT: '45' })).toBe(30_000);
    expect(await limitOf([], { MCPKIT_TIME_LIMIT: ' ' })).toBe(15_000);
  });

  it('refuses anything else with one sentence naming the flag or variable the user set', async () => {
    const before = witness(fixture);
    for (const value of ['0', '3601', '1.5', '-5', '1e3', '0x10', 'ten', '', '99999999999']) {
      const error = await refusal(() =>
        cli.create(commandLine(['--db', fixture.main, `--time-limit=${value}`]), silentLogger),
      );
      expect(error, value).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(
        `--time-limit is ${JSON.stringify(value)}, but the time limit must be a whole number of seconds from 1 to 3600.`,
      );
    }
    const fromEnv = await refusal(() =>
      cli.create(commandLine(['--db', fixture.main], { MCPKIT_TIME_LIMIT: '2.5' }), silentLogger),
    );
    expect((fromEnv as Error).message).toBe(
      'MCPKIT_TIME_LIMIT is "2.5", but the time limit must be a whole number of seconds from 1 to 3600.',
    );
    const long = await refusal(() =>
      cli.create(commandLine(['--db', fixture.main, `--time-limit=${'9'.repeat(100)}`]), silentLogger),
    );
    expect((long as Error).message).toBe(
      `--time-limit is "${'9'.repeat(40)}…", but the time limit must be a whole number of seconds from 1 to 3600.`,
    );
    expect(witness(fixture)).toEqual(before);
  });

  it('makes the bin exit with 2 and that sentence, before it serves', () => {
    expect(existsSync(BIN), 'dist/bin.js is missing: build the package first (npm run build)').toBe(true);
    const run = spawnSync(process.execPath, [BIN, '--db', fixture.main, '--time-limit', '0'], {
      input: '',
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '--time-limit is "0", but the time limit must be a whole number of seconds from 1 to 3600.',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
