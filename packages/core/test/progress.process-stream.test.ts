/**
 * runProcess streaming: `onOutput` hands stdout over while the child still runs, under the same
 * cap, deadline and cancellation as the collected output; `onSpawn` names the child so a test can
 * check it is gone once the run has settled.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { CancelledError } from '../src/progress/cancel.js';
import { runProcess } from '../src/progress/process.js';

const node = process.execPath;

/** A child that prints "first", waits until the file `argv[1]` exists, then prints "second" and exits. */
const WAITS_FOR_FILE = [
  '-e',
  "const fs=require('fs');process.stdout.write('first');" +
    "const t=setInterval(()=>{if(fs.existsSync(process.argv[1])){clearInterval(t);process.stdout.write('second')}},5)",
];

/** A child that prints a line every few milliseconds, forever. */
const PRINTS_FOREVER = ['-e', "setInterval(()=>process.stdout.write('tick\\n'),5)"];

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('runProcess with onOutput', () => {
  let tmp: string;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'mcpkit-stream-'));
  });
  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('hands output over while the child runs, and still returns all of it', async () => {
    const go = path.join(tmp, 'go');
    const seen: string[] = [];
    // The child cannot finish until the callback has seen its first output: without streaming
    // this run would never end (the test's timeout would catch it).
    const result = await runProcess(node, [...WAITS_FOR_FILE, go], {
      onOutput: (chunk) => {
        seen.push(chunk.toString('utf8'));
        if (seen.join('') === 'first') void writeFile(go, '');
      },
    });
    expect(seen.join('')).toBe('firstsecond');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(result).toEqual({ code: 0, stdout: 'firstsecond', stderr: '', truncated: false });
  });

  it('hands over nothing past the output cap', async () => {
    const pieces: Buffer[] = [];
    const result = await runProcess(
      node,
      ['-e', "process.stdout.write('x'.repeat(300000)); setInterval(() => {}, 1000)"],
      { maxOutputBytes: 70_000, onOutput: (chunk) => pieces.push(Buffer.from(chunk)) },
    );
    expect(result.truncated).toBe(true);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(result.stdout);
    expect(result.stdout).toBe('x'.repeat(70_000));
  });

  it('stops the child and fails the run with the error a callback throws', async () => {
    let pid = 0;
    const error = await runProcess(node, PRINTS_FOREVER, {
      onSpawn: (p) => {
        pid = p;
      },
      onOutput: () => {
        throw new Error('no more, thanks');
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('no more, thanks');
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('stops a streaming child when the call is cancelled, and the child is gone when the run settles', async () => {
    const controller = new AbortController();
    let pid = 0;
    let pieces = 0;
    const running = runProcess(node, PRINTS_FOREVER, {
      signal: controller.signal,
      onSpawn: (p) => {
        pid = p;
      },
      onOutput: () => {
        if (++pieces === 3) controller.abort();
      },
    });
    expect(pid).toBeGreaterThan(0);
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    expect(pieces).toBe(3);
    expect(alive(pid)).toBe(false);
  });

  // Output that keeps coming does not hold the deadline off: the generous test timeout catches a
  // run that was never stopped, and the sentence proves the deadline stopped it.
  it('stops a streaming child that runs too long', { timeout: 30_000 }, async () => {
    let pieces = 0;
    const error = await runProcess(node, PRINTS_FOREVER, {
      // Long enough for a child to start and print on a loaded machine; the check is that it printed.
      timeoutMs: 5_000,
      onOutput: () => {
        pieces++;
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect(error).not.toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe(`"${node}" took too long and was stopped.`);
    expect(pieces).toBeGreaterThan(0);
  });

  it('names no process for a program that does not exist', async () => {
    const pids: number[] = [];
    const error = await runProcess('mcpkit-no-such-program-here', [], { onSpawn: (p) => pids.push(p) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect(pids).toEqual([]);
  });

  it('works the same without onOutput: what a caller that collects only gets is unchanged', async () => {
    const script = "process.stdout.write('a'.repeat(100000)); process.stdout.write('b')";
    const plain = await runProcess(node, ['-e', script]);
    const pieces: Buffer[] = [];
    const streamed = await runProcess(node, ['-e', script], { onOutput: (c) => pieces.push(c) });
    expect(streamed).toEqual(plain);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(plain.stdout);
  });
});
