/**
 * The HTTP runner serving both eras over real sockets: SDK clients of 2025 and 2026-07-28, auth
 * pass-through to the factory, per-request isolation on the modern leg, listen observation,
 * startup refusal and shutdown.
 */
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging/logger.js';
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from '../src/runner/http-server.js';
import {
  callEcho,
  connectClient,
  echoFactory,
  expectGoodClients,
  type FactoryRecord,
  modernEchoCall,
  newRecord,
} from './http-helpers.js';

const open: HttpServerHandle[] = [];

async function start(options: Partial<HttpServerOptions> = {}, record: FactoryRecord = newRecord()) {
  const http = await startHttpServer({ factory: echoFactory(record), ...options });
  open.push(http);
  return http;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

describe('serving both eras', () => {
  it('serves a 2025 client over a session that DELETE ends', async () => {
    const record = newRecord();
    const http = await start({}, record);
    expect(http.url).toBe(`http://127.0.0.1:${http.port}/mcp`);
    const c = await connectClient(http.url, 'legacy');
    await callEcho(c.client, 'hello legacy');
    expect(http.sessionCount).toBe(1);
    expect(record.contexts.filter((ctx) => ctx.era === 'legacy')).toHaveLength(1);
    await c.close();
    expect(http.sessionCount).toBe(0);
  });

  it('serves a 2026-07-28 client without sessions', async () => {
    const record = newRecord();
    const http = await start({}, record);
    const c = await connectClient(http.url, 'modern');
    await callEcho(c.client, 'hello modern');
    await callEcho(c.client, 'again');
    expect(http.sessionCount).toBe(0);
    expect(record.contexts.every((ctx) => ctx.era === 'modern')).toBe(true);
    await c.close();
  });

  it('passes the verified bearer to the factory in both eras', async () => {
    const record = newRecord();
    const http = await start({ token: 'tok-abc' }, record);
    await expectGoodClients(http.url, 'tok-abc');
    const eras = new Set(record.contexts.map((ctx) => ctx.era));
    expect(eras).toEqual(new Set(['legacy', 'modern']));
    for (const ctx of record.contexts) {
      expect(ctx.authInfo).toMatchObject({ token: 'tok-abc', clientId: 'bearer', scopes: [] });
      expect(ctx.authInfo?.expiresAt ?? 0).toBeGreaterThan(Date.now() / 1000 + 365 * 24 * 3600);
    }
  });

  it('keeps concurrent modern requests with the same JSON-RPC id apart', async () => {
    const http = await start();
    const texts = Array.from({ length: 12 }, (_, i) => `client-${i}`);
    const answers = await Promise.all(
      texts.map(async (text, i) => {
        const call = modernEchoCall(7, text, 20 + ((i * 37) % 120));
        const response = await fetch(http.url, {
          method: 'POST',
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...call.headers,
          },
          body: call.body,
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { id: number; result: { content: { text: string }[] } };
      }),
    );
    answers.forEach((answer, i) => {
      expect(answer.id).toBe(7);
      expect(answer.result.content[0]?.text).toBe(texts[i]);
    });
  });

  it('hands out the modern handler and reports listen streams opening and closing', async () => {
    let handler: McpHttpHandler | undefined;
    const listens: { owner: object; uris: string[] }[] = [];
    const ended: object[] = [];
    const http = await start({
      onModernHandler: (h) => {
        handler = h;
      },
      onListen: (owner, uris) => listens.push({ owner, uris }),
      onListenEnd: (owner) => ended.push(owner),
    });
    expect(handler).toBeDefined();
    const c = await connectClient(http.url, 'modern');
    const updates: string[] = [];
    c.client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(n.params.uri);
    });
    const sub = await c.client.listen({ resourceSubscriptions: ['note://a'] });
    expect(listens).toHaveLength(1);
    expect(listens[0]?.uris).toEqual(['note://a']);
    handler?.notify.resourceUpdated('note://a');
    await expect.poll(() => updates).toEqual(['note://a']);
    await sub.close();
    await expect.poll(() => ended.length).toBe(1);
    expect(ended[0]).toBe(listens[0]?.owner);
    await c.close();
  });
});

describe('startup', () => {
  it('refuses a non-loopback bind without a token', async () => {
    await expect(startHttpServer({ factory: echoFactory(), host: '0.0.0.0' })).rejects.toThrow(
      'Refusing to listen on 0.0.0.0 without a bearer token; set MCPKIT_TOKEN or bind to 127.0.0.1.',
    );
  });

  it('refuses an empty token', async () => {
    await expect(startHttpServer({ factory: echoFactory(), token: ' ' })).rejects.toThrow(
      /must not be empty/,
    );
  });

  it('binds a non-loopback interface when a token is set', async () => {
    const http = await start({ host: '0.0.0.0', token: 'tok-wide' });
    const local = `http://127.0.0.1:${http.port}/mcp`;
    await expectGoodClients(local, 'tok-wide');
  });

  it('serves a custom path only', async () => {
    const http = await start({ path: '/rpc' });
    expect(http.url.endsWith('/rpc')).toBe(true);
    await expectGoodClients(http.url);
    expect((await fetch(http.url.replace('/rpc', '/mcp'), { method: 'POST' })).status).toBe(404);
  });
});

describe('logging', () => {
  it('logs requests at debug level without the Authorization value', async () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    const http = await start({ token: 'very-secret-token', log });
    await expectGoodClients(http.url, 'very-secret-token');
    await fetch(http.url, { method: 'POST', headers: { authorization: 'Bearer wrong-secret' } });
    await expect.poll(() => lines.some((l) => l.includes(' 401 '))).toBe(true);
    expect(lines.some((l) => l.startsWith('debug: POST /mcp 200'))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/very-secret-token|wrong-secret|Bearer/);
  });
});

describe('close()', () => {
  // A close that waits on an open stream instead of ending it never settles; the generous test
  // timeout catches that, so nothing here bounds how long closing took (a loaded machine varies).
  it('ends sessions and streams, stops accepting, and is idempotent', { timeout: 30_000 }, async () => {
    const ended: object[] = [];
    const http = await startHttpServer({
      factory: echoFactory(),
      onListenEnd: (o) => ended.push(o),
      onListen: () => {},
    });
    const legacy = await connectClient(http.url, 'legacy');
    const modern = await connectClient(http.url, 'modern');
    const sub = await modern.client.listen({ resourceSubscriptions: ['note://a'] });
    await callEcho(legacy.client, 'before close');
    expect(http.sessionCount).toBe(1);
    await Promise.all([http.close(), http.close()]);
    await http.close();
    expect(http.sessionCount).toBe(0);
    await expect.poll(() => ended.length).toBe(1);
    // The listen stream was ended by the server: its closed promise settles.
    await sub.closed;
    await expect(fetch(http.url, { method: 'POST' })).rejects.toThrow();
    await legacy.client.close();
    await modern.client.close();
  });
});
