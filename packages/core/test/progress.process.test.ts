/**
 * runProcess: a child run without a shell, its output captured and capped, its input fed, and the
 * child stopped when the call is aborted or runs too long.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { CancelledError } from '../src/progress/cancel.js';
import { runProcess } from '../src/progress/process.js';

describe('runProcess', () => {
  const node = process.execPath;
  let tmp: string;

  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'mcpkit-process-'));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('passes arguments literally, with no shell in between', async () => {
    const marker = path.join(tmp, 'pwned');
    const args = ['a b', `; echo pwned > ${marker}`, '$(echo nope)', '"quoted"', '*'];
    const result = await runProcess(node, [
      '-e',
      'process.stdout.write(JSON.stringify(process.argv.slice(1)))',
      ...args,
    ]);
    expect(result.code).toBe(0);
    expect(result.truncated).toBe(false);
    expect(JSON.parse(result.stdout)).toEqual(args);
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('captures stdout and stderr, feeds stdin and reports the exit code', async () => {
    const result = await runProcess(
      node,
      [
        '-e',
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(s.toUpperCase());process.stderr.write('warn');process.exit(3)})",
      ],
      { input: 'hello' },
    );
    expect(result).toEqual({ code: 3, stdout: 'HELLO', stderr: 'warn', truncated: false });
  });

  it('survives a child that exits without reading its input', async () => {
    // 8 MiB cannot fit in the pipe, so writing it to a child that has exited fails with EPIPE.
    const result = await runProcess(node, ['-e', 'process.exit(4)'], { input: 'x'.repeat(8 * 1024 * 1024) });
    expect(result.code).toBe(4);
  });

  it('runs in the given cwd with the given env', async () => {
    const result = await runProcess(
      node,
      ['-e', 'process.stdout.write(process.cwd() + "|" + process.env.MCPKIT_TEST_VAR)'],
      { cwd: tmp, env: { MCPKIT_TEST_VAR: 'set' } },
    );
    const [cwd, value] = result.stdout.split('|');
    expect(path.resolve(cwd ?? '')).toBe(path.resolve(tmp));
    expect(value).toBe('set');
  });

  it('caps stdout at maxOutputBytes and says it was truncated', async () => {
    const result = await runProcess(
      node,
      ['-e', "process.stdout.write('x'.repeat(200000)); setInterval(() => {}, 1000)"],
      { maxOutputBytes: 1000 },
    );
    expect(result.truncated).toBe(true);
    expect(result.stdout).toBe('x'.repeat(1000));
  });

  it('kills the child when the call is aborted', async () => {
    const pidFile = path.join(tmp, 'pid');
    const controller = new AbortController();
    const running = runProcess(
      node,
      [
        '-e',
        'require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)',
        pidFile,
      ],
      { signal: controller.signal },
    );
    let pid = 0;
    for (let i = 0; i < 200 && !pid; i++) {
      pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
      if (!pid) await new Promise((r) => setTimeout(r, 10));
    }
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('does not start when the signal has already fired', async () => {
    const marker = path.join(tmp, 'started');
    await expect(
      runProcess(node, ['-e', 'require("fs").writeFileSync(process.argv[1], "")', marker], {
        signal: AbortSignal.abort(),
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    await new Promise((r) => setTimeout(r, 100));
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  // The child never ends by itself, so without the deadline this call would hang: the generous
  // test timeout catches that, and the sentence proves the deadline (not something else) stopped it.
  it('stops a child that runs too long with a UserError', { timeout: 30_000 }, async () => {
    const error = await runProcess(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 150 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect(error).not.toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe(`"${node}" took too long and was stopped.`);
  });

  it('reports a missing program as a UserError', async () => {
    const error = await runProcess('mcpkit-no-such-program-here', ['--version']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      'The program "mcpkit-no-such-program-here" is not installed or not on PATH.',
    );
  });
});
