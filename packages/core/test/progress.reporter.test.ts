/**
 * progress(): reports sent with the caller's token, throttled and never decreasing, sent as a no-op
 * without a token, and delivered through a real client in both eras.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
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
