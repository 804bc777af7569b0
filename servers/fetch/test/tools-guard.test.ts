/**
 * What the tools add around the guarded client, in both eras: a private address is refused for
 * every tool and the local server sees no request, downloads report bytes received of
 * Content-Length as progress, and cancelling a slow download hangs up on the server, whether the
 * call was plain or a 2026 task.
 */
import type { ServerResponse } from 'node:http';
import { taskWire, untilTask } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ERAS, expectSentence, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

/** A body of `size` bytes: the first 64 KiB at once, then a byte now and then until hung up on. */
function slowRoute(size: number, closed: (res: ServerResponse) => void) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(size) });
    res.write(Buffer.alloc(64 * 1024, 0x61));
    const timer = setInterval(() => res.write('a'), 50);
    res.on('close', () => {
      clearInterval(timer);
      closed(res);
    });
  };
}

/** A route that counts as hung up on once the response closes; `closed` resolves then. */
function trackSlow(fx: ToolsFixture, path: string) {
  let hungUp!: () => void;
  const closed = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  fx.server.route(
    path,
    slowRoute(1_000_000, () => hungUp()),
  );
  return closed;
}

describe.each(ERAS)('the guard and long downloads, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('refuses a private address for every tool when it is not allowed, and the server sees nothing', async () => {
    fx = await toolsFixture(era, { app: { allow: {} } });
    const literal = fx.server.url('/alpha');
    const named = fx.url('/alpha');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['fetch', { url: literal }],
      ['fetch', { url: named }],
      ['fetch_links', { url: literal }],
      ['fetch_image', { url: fx.server.url('/image.png') }],
      ['research', { url: literal, question: 'What is here?' }],
    ];
    for (const [tool, args] of calls) {
      expectSentence((await fx.call(tool, args)).result, /Refused to fetch from 127\.0\.0\.1.*loopback/);
    }
    expect(fx.server.total()).toBe(0);
  });

  it('refuses localhost and metadata addresses, which the allow list does not cover', async () => {
    fx = await toolsFixture(era);
    expectSentence((await fx.call('fetch', { url: 'http://localhost./' })).result, /names this machine/);
    expectSentence(
      (await fx.call('fetch', { url: 'http://169.254.169.254/latest/meta-data/' })).result,
      /Refused to fetch from 169\.254\.169\.254/,
    );
    expect(fx.server.total()).toBe(0);
  });

  it('reports bytes received of Content-Length, and cancelling hangs up on the server', async () => {
    fx = await toolsFixture(era, { app: { limits: { totalTimeoutMs: 60_000, maxBytes: 2_000_000 } } });
    const closed = trackSlow(fx, '/slow');
    const controller = new AbortController();
    const reports: Array<{ progress: number; total?: number; message?: string }> = [];
    let firstReport!: () => void;
    const reported = new Promise<void>((resolve) => {
      firstReport = resolve;
    });
    const call = fx.session.callTool(
      'fetch',
      { url: fx.url('/slow') },
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (p.message?.startsWith('Fulfilling')) return;
          reports.push(p);
          firstReport();
        },
      },
    );
    const outcome = call.then(
      () => 'finished',
      () => 'rejected',
    );
    await reported;
    expect(reports[0]?.total).toBe(1_000_000);
    expect(reports[0]?.progress).toBeGreaterThan(0);
    expect(reports[0]?.progress).toBeLessThan(1_000_000);
    expect(reports[0]?.message).toBe('Downloading from site.test:' + fx.server.port);
    controller.abort();
    expect(await outcome).toBe('rejected');
    await closed;
    // The server still serves the next call.
    expect((await fx.call('fetch', { url: fx.url('/alpha') })).text).toContain('Apples');
  });
});

describe('fetch as a 2026 task', () => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('answers with a handle, then the page on tasks/get', async () => {
    fx = await toolsFixture('modern');
    const wire = await taskWire(fx.app);
    try {
      const handle = await wire.request('tools/call', { name: 'fetch', arguments: { url: fx.url('/beta') } });
      expect(handle.resultType).toBe('task');
      const done = await untilTask(wire, handle.taskId, 'completed');
      expect(JSON.stringify(done.result.content)).toContain('Bananas are the subject');
    } finally {
      await wire.close();
    }
  });

  it('stops the download when the task is cancelled', async () => {
    fx = await toolsFixture('modern', { app: { limits: { totalTimeoutMs: 60_000, maxBytes: 2_000_000 } } });
    const closed = trackSlow(fx, '/slow');
    const wire = await taskWire(fx.app);
    try {
      const handle = await wire.request('tools/call', { name: 'fetch', arguments: { url: fx.url('/slow') } });
      while (fx.server.hits('/slow') === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      await wire.request('tasks/cancel', { taskId: handle.taskId });
      const after = await untilTask(wire, handle.taskId, 'cancelled');
      expect(after.status).toBe('cancelled');
      await closed;
    } finally {
      await wire.close();
    }
  });
});
