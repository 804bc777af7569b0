/**
 * `--slow-path` as an operator types it: `~` expanded as for the directory arguments, a link slow
 * under both its spellings, and an empty value, a path that does not exist or a file refused with
 * one sentence naming where the value came from (a typo would otherwise make nothing slow, and
 * say nothing). The real process turns that sentence into exit code 2.
 */
import { spawn } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@mcpkit/core/logging';
import { slowPaths } from '@mcpkit/core/roots';
import { parseCommandLine, UsageError } from '@mcpkit/core/runner';
import type { App } from '@mcpkit/core/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../src/cli.js';
import { world } from './harness.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** A logger that keeps what it is told. */
function keeping(lines: string[]): Logger {
  const keep = (message: string) => void lines.push(message);
  return { level: 'debug', debug: keep, info: keep, warn: keep, error: keep };
}

describe('--slow-path', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let nas: string;
  let apps: App[] = [];
  const lines: string[] = [];
  beforeAll(async () => {
    w = await world();
    nas = join(w.base, 'nas');
    await mkdir(join(nas, 'docs'), { recursive: true });
    await writeFile(join(w.base, 'file.txt'), 'a file\n');
  });
  afterEach(async () => {
    for (const app of apps) await app.close();
    apps = [];
    lines.length = 0;
    slowPaths.clearAdded();
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await w.cleanup();
  });

  const start = async (argv: string[], env: Record<string, string> = {}) => {
    const app = await cli.create(parseCommandLine(argv, cli.options, env, cli.bin), keeping(lines));
    apps.push(app);
    return app;
  };
  const refusal = async (argv: string[], env: Record<string, string> = {}) => {
    const error = await start(argv, env).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  };

  it('expands ~ and ~/dir as the directory arguments are', async () => {
    vi.stubEnv('HOME', w.base);
    expect(slowPaths.isSlow(join(nas, 'docs'))).toBe(false);
    await start(['--slow-path', '~/nas', w.allowed]);
    expect(slowPaths.isSlow(join(nas, 'docs'))).toBe(true);
    expect(slowPaths.isSlow(w.allowed)).toBe(false);
    expect(lines.filter((line) => line.includes('slow-path'))).toEqual([]);
  });

  it('makes a link slow under its own name and its target', async () => {
    const link = join(w.base, 'to-nas');
    await symlink(nas, link);
    await start([`--slow-path=${link}`, w.allowed]);
    expect(slowPaths.isSlow(join(link, 'docs'))).toBe(true);
    expect(slowPaths.isSlow(join(nas, 'docs'))).toBe(true);
  });

  it('refuses an empty value, naming the option', async () => {
    expect(await refusal(['--slow-path', '', w.allowed])).toBe(
      '--slow-path is empty or has control characters; give the directory a network or FUSE file system is mounted on.',
    );
    expect(await refusal(['--slow-path=', w.allowed])).toMatch(/^--slow-path is empty/);
  });

  it('refuses a path that does not exist, naming where it came from', async () => {
    const typo = join(w.base, 'nsa');
    expect(await refusal(['--slow-path', typo, w.allowed])).toBe(
      `--slow-path ${JSON.stringify(typo)} does not exist or cannot be accessed; check the path, or leave it out.`,
    );
    expect(await refusal([w.allowed], { MCPKIT_SLOW_PATH: `${nas},${typo}` })).toMatch(
      /^MCPKIT_SLOW_PATH ".*nsa" does not exist/,
    );
  });

  it('refuses a file', async () => {
    expect(await refusal(['--slow-path', join(w.base, 'file.txt'), w.allowed])).toMatch(
      /^--slow-path ".*file\.txt" is not a directory; give the directory .*\.$/,
    );
  });

  it('ends the process with exit code 2 and one sentence', async () => {
    const child = spawn(process.execPath, [BIN, '--slow-path', '', w.allowed], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(
      'mcpkit-filesystem: --slow-path is empty or has control characters; give the directory a network or FUSE file system is mounted on.',
    );
    expect(stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});
