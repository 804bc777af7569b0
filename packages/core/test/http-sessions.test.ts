/**
 * Legacy (2025-era) sessions: ids, 404 for unknown, terminated and foreign sessions, the GET
 * stream, principal binding, idle reaping and least-recently-used eviction (SDK 2.4 has neither).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from '../src/runner/http-server.js';
import {
  callEcho,
  connectClient,
  echoFactory,
  expectGoodClients,
  type FactoryRecord,
  initializeBody,
  newRecord,
  sleep,
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

const JSON_AND_SSE = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** Opens a 2025 session by hand (no GET stream) and returns its id. */
async function openSession(url: string, token?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: initializeBody(),
  });
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id');
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  return id as string;
}

/** Sends a `ping` on session `id` and returns the HTTP status. */
async function ping(url: string, id: string, token?: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...JSON_AND_SSE,
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await response.text();
  return response.status;
}

async function sessionRequest(url: string, method: 'GET' | 'DELETE', id: string, token?: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    method,
    signal: controller.signal,
    headers: {
      accept: 'text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  return { response, abort: () => controller.abort() };
}

describe('session ids', () => {
  it('answers 404 for an unknown session id', async () => {
    const http = await start();
    expect(await ping(http.url, randomUUID())).toBe(404);
    expect(await ping(http.url, '1')).toBe(404);
    await expectGoodClients(http.url);
  });

  it('answers 404 for every method once DELETE ended the session', async () => {
    const http = await start();
    const id = await openSession(http.url);
    expect(await ping(http.url, id)).toBe(200);
    const del = await sessionRequest(http.url, 'DELETE', id);
    expect(del.response.status).toBe(200);
    expect(http.sessionCount).toBe(0);
    expect(await ping(http.url, id)).toBe(404);
    expect((await sessionRequest(http.url, 'GET', id)).response.status).toBe(404);
    expect((await sessionRequest(http.url, 'DELETE', id)).response.status).toBe(404);
    await expectGoodClients(http.url);
  });

  it('opens the SSE stream of a session with GET', async () => {
    const http = await start();
    const id = await openSession(http.url);
    const get = await sessionRequest(http.url, 'GET', id);
    expect(get.response.status).toBe(200);
    expect(get.response.headers.get('content-type')).toBe('text/event-stream');
    get.abort();
    await expectGoodClients(http.url);
  });

  it('refuses session operations without a session id with 400', async () => {
    const http = await start();
    const response = await fetch(http.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(response.status).toBe(400);
    const get = await fetch(http.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    await expectGoodClients(http.url);
  });
});

describe('principal binding', () => {
  const principals: Record<string, string> = { 'alice-token-1': 'alice', 'bob-token-22': 'bob' };
  const verifyToken = (token: string) => principals[token];

  it("answers 404 when another principal presents a session's id", async () => {
    const record = newRecord();
    const http = await start({ verifyToken }, record);
    const alice = await connectClient(http.url, 'legacy', 'alice-token-1');
    await callEcho(alice.client, 'alice here');
    const id = alice.transport.sessionId as string;
    expect(await ping(http.url, id, 'bob-token-22')).toBe(404);
    expect((await sessionRequest(http.url, 'GET', id, 'bob-token-22')).response.status).toBe(404);
    expect((await sessionRequest(http.url, 'DELETE', id, 'bob-token-22')).response.status).toBe(404);
    // Bob's attempts changed nothing for Alice.
    expect(await ping(http.url, id, 'alice-token-1')).toBe(200);
    await callEcho(alice.client, 'still alice');
    expect(record.contexts.find((ctx) => ctx.era === 'legacy')?.authInfo?.clientId).toBe('alice');
    await alice.close();
    // And Bob is served on his own.
    await expectGoodClients(http.url, 'bob-token-22');
    expect(record.contexts.at(-1)?.authInfo?.clientId).toBe('bob');
  });

  it('refuses tokens the verifier does not know', async () => {
    const http = await start({ verifyToken });
    const response = await fetch(http.url, { method: 'POST', headers: { authorization: 'Bearer carol' } });
    expect(response.status).toBe(401);
  });
});

describe('idle reaping and eviction', () => {
  it('reaps a session left idle', async () => {
    const http = await start({ sessionIdleMs: 150 });
    const id = await openSession(http.url);
    expect(http.sessionCount).toBe(1);
    await expect.poll(() => http.sessionCount, { timeout: 3_000 }).toBe(0);
    expect(await ping(http.url, id)).toBe(404);
    await expectGoodClients(http.url);
  });

  it('reaps a session whose client closed without DELETE', async () => {
    const http = await start({ sessionIdleMs: 150 });
    const c = await connectClient(http.url, 'legacy');
    await callEcho(c.client, 'x');
    const id = c.transport.sessionId as string;
    await c.client.close();
    await expect.poll(() => http.sessionCount, { timeout: 3_000 }).toBe(0);
    expect(await ping(http.url, id)).toBe(404);
  });

  it('keeps a session alive while its GET stream is open', async () => {
    const http = await start({ sessionIdleMs: 150 });
    const c = await connectClient(http.url, 'legacy');
    // Wait for the client's standalone GET stream, then stay quiet for several idle periods.
    await sleep(800);
    expect(http.sessionCount).toBe(1);
    await callEcho(c.client, 'still here');
    await c.close();
  });

  it('evicts the least recently used session past maxSessions', async () => {
    const http = await start({ maxSessions: 2 });
    const a = await openSession(http.url);
    const b = await openSession(http.url);
    expect(await ping(http.url, a)).toBe(200); // b is now the least recently used
    const c = await openSession(http.url);
    expect(http.sessionCount).toBe(2);
    expect(await ping(http.url, b)).toBe(404);
    expect(await ping(http.url, a)).toBe(200);
    expect(await ping(http.url, c)).toBe(200);
    // The good legacy client takes a slot (evicting `a`, now the oldest) and frees it on DELETE.
    await expectGoodClients(http.url);
    expect(http.sessionCount).toBe(1);
    expect(await ping(http.url, a)).toBe(404);
    expect(await ping(http.url, c)).toBe(200);
  });
});
