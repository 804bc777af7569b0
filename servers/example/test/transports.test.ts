import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  connect,
  scriptedModel,
  startHttpBin as startBin,
  type TestSession,
  type TestTransport,
} from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesFixture, textOf } from './fixtures.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Starts the built bin over HTTP on a free port. */
export function startHttpBin(dir: string, env: Record<string, string> = {}) {
  const server = startBin(BIN, [dir], { env: { ...process.env, MCPKIT_TOKEN: '', ...env } });
  return { url: server.then((s) => s.url), stop: () => server.then((s) => s.stop()) };
}

describe('example server as a real process', () => {
  let fx: Awaited<ReturnType<typeof notesFixture>>;
  let http: ReturnType<typeof startHttpBin>;
  let url: string;
  beforeAll(async () => {
    fx = await notesFixture();
    http = startHttpBin(fx.dir);
    url = await http.url;
  });
  afterAll(async () => {
    expect(await http.stop()).toBe(0);
    await fx.cleanup();
  });

  const transports = (): [string, TestTransport][] => [
    ['stdio', { stdio: { command: process.execPath, args: [BIN, fx.dir] } }],
    ['http', { http: url }],
  ];

  for (const era of ['legacy', 'modern'] as const) {
    for (const name of ['stdio', 'http']) {
      it(`${name}, ${era} era: tools, resources, prompts, sampling with tools, elicitation, subscriptions`, async () => {
        const transport = transports().find(([n]) => n === name)![1];
        const model = scriptedModel({
          toolCalls: [{ name: 'read_note', input: { name: 'alpha' } }],
          answer: () => 'read it',
        });
        let session: TestSession | undefined;
        try {
          session = await connect(undefined, {
            era,
            transport,
            sampling: model.respond,
            roots: [fx.dir],
            elicitation: () => ({ action: 'accept', content: { confirm: true } }),
          });
          expect(session.client.getProtocolEra()).toBe(era);
          const tools = await session.client.listTools();
          expect(tools.tools.length).toBe(6);
          expect(textOf(await session.callTool('read_note', { name: 'beta' }))).toContain('Bananas');
          const bad = await session.callTool('read_note', { name: '../outside/secret' });
          expect(bad.isError).toBe(true);
          expect(textOf(bad)).not.toContain(fx.base);
          const summary = await session.callTool('summarize_notes', {});
          expect(summary.structuredContent).toMatchObject({ answer: 'read it', notesRead: 1 });
          const note = `t-${name}-${era}`;
          expect(textOf(await session.callTool('write_note', { name: note, text: 'one' }))).toContain(
            'Saved',
          );
          expect(textOf(await session.callTool('write_note', { name: note, text: 'two' }))).toContain(
            'Saved',
          );
          expect((await session.client.readResource({ uri: `note:///${note}` })).contents[0]).toMatchObject({
            text: 'two',
          });
          const p = await session.client.getPrompt({ name: 'review_note', arguments: { name: 'alpha' } });
          expect(JSON.stringify(p)).toContain('apples');
          // Subscription: an outside write reaches the client.
          let closeSub: () => Promise<void>;
          if (era === 'legacy') {
            await session.client.subscribeResource({ uri: `note:///${note}` });
            closeSub = async () =>
              void (await session?.client.unsubscribeResource({ uri: `note:///${note}` }));
          } else {
            const sub = await session.client.listen({ resourceSubscriptions: [`note:///${note}`] });
            closeSub = () => sub.close();
          }
          await new Promise((r) => setTimeout(r, 400));
          await writeFile(join(fx.dir, `${note}.md`), 'three');
          await session.notifications.waitFor(
            'notifications/resources/updated',
            (n) => n.params?.uri === `note:///${note}`,
          );
          await closeSub();
          expect(textOf(await session.callTool('delete_note', { name: note }))).toContain('Deleted');
        } finally {
          await session?.close();
        }
      });
    }
  }

  it('answers --version and --help, and refuses a bad command line with exit code 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const c = spawn(process.execPath, [BIN, ...args]);
        let out = '';
        let err = '';
        c.stdout.on('data', (d: Buffer) => (out += d));
        c.stderr.on('data', (d: Buffer) => (err += d));
        c.on('exit', (code) => resolve({ code, out, err }));
      });
    expect((await run(['--version'])).out.trim()).toBe('0.1.0');
    expect((await run(['--help'])).out).toContain('--transport');
    const bad = await run(['--transport', 'carrier-pigeon', fx.dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--transport must be stdio or http');
    const missing = await run([join(fx.base, 'does-not-exist')]);
    expect(missing.code).toBe(2);
    expect(missing.err).not.toContain('    at ');
    const exposed = await run(['--transport', 'http', '--host', '0.0.0.0', '--port', '0', fx.dir]);
    expect(exposed.code).not.toBe(0);
    expect(exposed.err).toContain('bearer token');
  });
});

describe('scale-out: one 2026 call whose rounds land on different processes', () => {
  it('completes when both processes share MCPKIT_STATE_KEY behind a round-robin balancer', async () => {
    const fx = await notesFixture();
    const key = randomBytes(32).toString('hex');
    const a = startHttpBin(fx.dir, { MCPKIT_STATE_KEY: key });
    const b = startHttpBin(fx.dir, { MCPKIT_STATE_KEY: key });
    const balancer = await roundRobin([await a.url, await b.url]);
    try {
      const model = scriptedModel({
        toolCalls: [{ name: 'read_note', input: { name: 'gamma' } }],
        answer: () => 'fine',
      });
      const session = await connect(undefined, {
        era: 'modern',
        transport: { http: balancer.url },
        sampling: model.respond,
        roots: [fx.dir],
      });
      const r = await session.callTool('summarize_notes', {});
      expect(r.structuredContent).toMatchObject({ answer: 'fine', notesRead: 1 });
      // Three rounds (roots, tool_use, final): both backends must have served some.
      expect(balancer.hits.every((h) => h > 0)).toBe(true);
      await session.close();
    } finally {
      await balancer.close();
      await Promise.all([a.stop(), b.stop()]);
      await fx.cleanup();
    }
  });

  it('fails cleanly (not a crash) when the processes do not share a key', async () => {
    const fx = await notesFixture();
    const a = startHttpBin(fx.dir);
    const b = startHttpBin(fx.dir);
    const balancer = await roundRobin([await a.url, await b.url]);
    try {
      const session = await connect(undefined, {
        era: 'modern',
        transport: { http: balancer.url },
        roots: [fx.dir],
      });
      // Round 1 (ask for roots) lands on one process, the retry on the other, which cannot verify the state.
      await expect(session.callTool('read_note', { name: 'alpha' })).rejects.toThrow(/requestState/i);
      await session.close();
      // Single-round calls still work on both processes.
      const plain = await connect(undefined, { era: 'modern', transport: { http: balancer.url } });
      expect(textOf(await plain.callTool('read_note', { name: 'alpha' }))).toContain('apples');
      expect(textOf(await plain.callTool('read_note', { name: 'beta' }))).toContain('Bananas');
      await plain.close();
    } finally {
      await balancer.close();
      await Promise.all([a.stop(), b.stop()]);
      await fx.cleanup();
    }
  });
});

/** A minimal round-robin HTTP balancer on 127.0.0.1 that alternates per request. */
async function roundRobin(backends: string[]) {
  const { createServer, request } = await import('node:http');
  const hits = backends.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next++ % backends.length;
    hits[i]!++;
    const target = new URL(backends[i]!);
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
