import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The runner's side of the context's lifetime, on a real process: whatever ends it, the context
// is closed exactly once, after which the process exits 0.
const BIN = fileURLToPath(new URL('./fixtures/context-bin.mjs', import.meta.url));

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; journal: string; stderr: () => string }> {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-context-'));
  const journal = join(dir, 'journal');
  const child = spawn(process.execPath, [BIN], {
    env: { ...process.env, MCPKIT_TEST_JOURNAL: journal, ...env },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (d.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  return { child, journal, stderr: () => stderr };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('the runner closes the server context exactly once', () => {
  it.each([
    ['the end of stdin', (c: ChildProcess) => c.stdin?.end()],
    ['SIGTERM', (c: ChildProcess) => c.kill('SIGTERM')],
    ['SIGINT then SIGTERM at once', (c: ChildProcess) => c.kill('SIGINT') && c.kill('SIGTERM')],
    ['SIGTERM and the end of stdin together', (c: ChildProcess) => c.kill('SIGTERM') && c.stdin?.end()],
  ])('on %s', async (_what, end) => {
    const { child, journal } = await start();
    const exit = exited(child);
    end(child);
    expect(await exit).toBe(0);
    expect(await readFile(journal, 'utf8')).toBe('opened\nclosed\n');
  });

  it('logs a context that fails to close, and still exits 0 without a stack trace', async () => {
    const { child, journal, stderr } = await start({ MCPKIT_TEST_FAIL_CLOSE: '1' });
    const exit = exited(child);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(await readFile(journal, 'utf8')).toBe('opened\nclosed\n');
    expect(stderr()).toContain('closing failed: the handle would not close');
    expect(stderr()).not.toMatch(/\n\s+at /);
  });
});
