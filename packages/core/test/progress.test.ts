import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { UserError } from '../src/errors/index.js';
import { CancelledError, checkpoint, throwIfAborted, withDeadline } from '../src/progress/cancel.js';
import { runProcess } from '../src/progress/process.js';
import { progress } from '../src/progress/reporter.js';

interface Sent {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

function fakeCtx(token?: string | number, notify?: () => Promise<void>) {
  const sent: Sent[] = [];
  const ctx = {
    mcpReq: {
      _meta: token === undefined ? {} : { progressToken: token },
      notify: async (n: { method: string; params: Sent }) => {
        expect(n.method).toBe('notifications/progress');
        if (notify) return notify();
        sent.push(n.params);
      },
    },
  } as unknown as ServerContext;
  return { ctx, sent };
}

describe('progress', () => {
  it('is a disabled no-op without a progress token', () => {
    const { ctx, sent } = fakeCtx(undefined);
    const p = progress(ctx);
    expect(p.enabled).toBe(false);
    p.report(1, { total: 1 });
    p.flush();
    expect(sent).toEqual([]);
  });

  it('sends the token with every report', () => {
    const { ctx, sent } = fakeCtx('tok-1');
    const p = progress(ctx, { throttleMs: 0 });
    expect(p.enabled).toBe(true);
    p.report(1, { total: 4, message: 'one' });
    expect(sent).toEqual([{ progressToken: 'tok-1', progress: 1, total: 4, message: 'one' }]);
  });

  it('drops values that do not increase', () => {
    const { ctx, sent } = fakeCtx(7);
    const p = progress(ctx, { throttleMs: 0 });
    p.report(2);
    p.report(2);
    p.report(1);
    p.report(Number.NaN);
    p.report(3);
    expect(sent.map((s) => s.progress)).toEqual([2, 3]);
  });

  it('merges reports inside the throttle window and sends on the next one past it', () => {
    let now = 1000;
    const { ctx, sent } = fakeCtx('t');
    const p = progress(ctx, { throttleMs: 100, now: () => now });
    p.report(1);
    now = 1050;
    p.report(2);
    now = 1099;
    p.report(3);
    expect(sent.map((s) => s.progress)).toEqual([1]);
    now = 1100;
    p.report(4);
    expect(sent.map((s) => s.progress)).toEqual([1, 4]);
    // Nothing pending: flush sends nothing more.
    p.flush();
    expect(sent).toHaveLength(2);
  });

  it('always sends the final value (value === total) at once', () => {
    let now = 0;
    const { ctx, sent } = fakeCtx('t');
    const p = progress(ctx, { throttleMs: 1000, now: () => now });
    p.report(1, { total: 3 });
    now = 1;
    p.report(2, { total: 3 });
    now = 2;
    p.report(3, { total: 3 });
    expect(sent.map((s) => [s.progress, s.total])).toEqual([
      [1, 3],
      [3, 3],
    ]);
  });

  it('flush() sends the pending report once', () => {
    let now = 0;
    const { ctx, sent } = fakeCtx('t');
    const p = progress(ctx, { throttleMs: 1000, now: () => now });
    p.report(1);
    now = 10;
    p.report(2, { message: 'two' });
    expect(sent).toHaveLength(1);
    p.flush();
    p.flush();
    expect(sent).toEqual([
      { progressToken: 't', progress: 1 },
      { progressToken: 't', progress: 2, message: 'two' },
    ]);
  });

  it('adds `base` to values and totals', () => {
    const { ctx, sent } = fakeCtx('t');
    const p = progress(ctx, { throttleMs: 0, base: 10 });
    p.report(1, { total: 5 });
    p.report(5, { total: 5 });
    expect(sent.map((s) => [s.progress, s.total])).toEqual([
      [11, 15],
      [15, 15],
    ]);
    // A value below the last one (with base) is still dropped.
    p.report(4);
    expect(sent).toHaveLength(2);
  });

  it('does not throw or reject when the notification cannot be sent', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const { ctx } = fakeCtx('t', () => Promise.reject(new Error('connection closed')));
      const p = progress(ctx, { throttleMs: 0 });
      expect(() => p.report(1)).not.toThrow();
      await new Promise((r) => setTimeout(r, 10));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe.each(['legacy', 'modern'] as const)('progress through a real client (%s era)', (era) => {
  it('reaches the caller’s onprogress with increasing values', async () => {
    const factory = () => {
      const mcp = new McpServer({ name: 'progress-test', version: '1.0.0' }, { capabilities: { tools: {} } });
      mcp.registerTool('count', { description: 'Counts.', inputSchema: z.object({}) }, (_args, ctx) => {
        const p = progress(ctx, { throttleMs: 0 });
        for (let i = 1; i <= 3; i++) p.report(i, { total: 3, message: `step ${i}` });
        p.report(2);
        return { content: [{ type: 'text', text: String(p.enabled) }] };
      });
      return mcp;
    };
    const client = new Client(
      { name: 'progress-test-client', version: '0.0.0' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(factory, { transport: serverSide });
    await client.connect(clientSide);
    try {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = await client.callTool(
        { name: 'count', arguments: {} },
        { onprogress: (p) => seen.push({ progress: p.progress, total: p.total, message: p.message }) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'true' }]);
      expect(seen).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});

describe('cancellation helpers', () => {
  it('throwIfAborted throws CancelledError only after abort', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    controller.abort();
    expect(() => throwIfAborted(controller.signal)).toThrow(CancelledError);
    const error = new CancelledError();
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('The call was cancelled.');
  });

  it('checkpoint yields to the event loop every N calls', async () => {
    const tick = checkpoint(undefined, 3);
    let macrotasks = 0;
    const count = () => {
      macrotasks++;
    };
    setImmediate(count);
    await tick();
    await tick();
    expect(macrotasks).toBe(0);
    await tick();
    expect(macrotasks).toBe(1);
    setImmediate(count);
    await tick();
    await tick();
    expect(macrotasks).toBe(1);
    await tick();
    expect(macrotasks).toBe(2);
  });

  it('checkpoint throws CancelledError after abort, also when abort lands during the yield', async () => {
    const controller = new AbortController();
    const tick = checkpoint(controller.signal, 2);
    await tick();
    // The abort runs while the second call yields; the check after the yield catches it.
    setImmediate(() => controller.abort());
    await expect(tick()).rejects.toBeInstanceOf(CancelledError);
    await expect(tick()).rejects.toBeInstanceOf(CancelledError);
  });

  it('withDeadline fires on timeout', async () => {
    const signal = withDeadline(undefined, 20);
    expect(signal.aborted).toBe(false);
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('withDeadline fires on timeout with a parent signal that stays quiet', async () => {
    const parent = new AbortController();
    const signal = withDeadline(parent.signal, 20);
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    expect((signal.reason as Error).name).toBe('TimeoutError');
    expect(parent.signal.aborted).toBe(false);
  });

  it('withDeadline follows the parent signal before the deadline', () => {
    const parent = new AbortController();
    const signal = withDeadline(parent.signal, 60_000);
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('client cancelled'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('client cancelled');
  });
});

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

  it('stops a child that runs too long with a UserError', async () => {
    const started = Date.now();
    const error = await runProcess(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 150 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect(error).not.toBeInstanceOf(CancelledError);
    expect((error as Error).message).toBe(`"${node}" took too long and was stopped.`);
    expect(Date.now() - started).toBeLessThan(1500);
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
