/**
 * SSE resumption on the 2025 leg (SEP-1699): every POST stream starts with a priming event that
 * carries an id and the `retry` delay, every event has an id, and a GET with `Last-Event-ID`
 * replays what the client missed, from its own session only.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from '../src/runner/http-server.js';
import { echoFactory, initializeBody, parseSse, type SseEvent, sleep } from './http-helpers.js';

const LEGACY = '2025-11-25';
const JSON_AND_SSE = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

const open: HttpServerHandle[] = [];

async function start(options: Partial<HttpServerOptions> = {}) {
  const http = await startHttpServer({ factory: echoFactory(), ...options });
  open.push(http);
  return http;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** Opens a session by hand and returns its id and the events of the initialize stream. */
async function openSession(url: string) {
  const response = await fetch(url, { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() });
  expect(response.status).toBe(200);
  const events = parseSse(await response.text());
  return { id: response.headers.get('mcp-session-id') as string, events };
}

function sessionHeaders(id: string, extra: Record<string, string> = {}) {
  return { 'mcp-session-id': id, 'mcp-protocol-version': LEGACY, ...extra };
}

function post(url: string, session: string, body: object, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...sessionHeaders(session) },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

const echoCall = (id: number, text: string, delayMs = 0) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text, delayMs } },
});

/**
 * Reads `response`'s SSE events until `until` holds or the stream ends. Only whole events
 * (ended by a blank line) are parsed.
 */
async function readEvents(
  response: Response,
  until: (events: SseEvent[]) => boolean = () => false,
): Promise<SseEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  let text = '';
  let events: SseEvent[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    text += value;
    events = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
    if (until(events)) {
      await reader.cancel();
      return events;
    }
  }
}

const messagesOf = (events: SseEvent[]) =>
  events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Record<string, unknown>);

/** The priming event: first, with an id and `retry`, and no data. */
function expectPriming(event: SseEvent | undefined, retry: number): string {
  expect(event).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), retry, data: '' });
  return event?.id as string;
}

describe('priming event and retry', () => {
  it('starts every POST stream of a session with a primed id and the retry delay', async () => {
    const http = await start();
    const session = await openSession(http.url);
    expectPriming(session.events[0], 1_000);
    expect(session.events).toHaveLength(2);
    expect(session.events[1]?.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(messagesOf(session.events)).toMatchObject([{ id: 1, result: { protocolVersion: LEGACY } }]);

    const call = await post(http.url, session.id, echoCall(2, 'hello'));
    const events = await readEvents(call);
    const priming = expectPriming(events[0], 1_000);
    expect(events).toHaveLength(2);
    expect(events[1]?.id).not.toBe(priming);
    expect(messagesOf(events)).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hello' }] } },
    ]);
  });

  it('sends the configured retry delay', async () => {
    const http = await start({ resumption: { retryMs: 250 } });
    expectPriming((await openSession(http.url)).events[0], 250);
  });

  it('refuses an unusable retry delay', async () => {
    await expect(start({ resumption: { retryMs: 1.5 } })).rejects.toThrow(/retry delay/);
  });
});

describe('GET with Last-Event-ID', () => {
  /**
   * GET with Last-Event-ID, retried like a client does while the server still holds the dropped
   * stream (409: it has not seen the disconnect yet).
   */
  const resume = async (url: string, session: string, lastEventId: string) => {
    const headers = {
      accept: 'text/event-stream',
      ...sessionHeaders(session, { 'last-event-id': lastEventId }),
    };
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(url, { headers });
      if (response.status !== 409 || attempt === 20) return response;
      await response.body?.cancel();
      await sleep(50);
    }
  };

  it('replays the answer a dropped POST stream missed, after the call finished', async () => {
    const http = await start();
    const session = await openSession(http.url);
    const dropped = new AbortController();
    const call = await post(http.url, session.id, echoCall(2, 'missed', 200), dropped.signal);
    const seen = await readEvents(call, (events) => events.length >= 1);
    const priming = expectPriming(seen[0], 1_000);
    dropped.abort();
    // Long enough for the 200 ms call to end with nobody listening.
    await sleep(600);

    const get = await resume(http.url, session.id, priming);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    // The call is over, so the stream ends after the replay.
    const replayed = await readEvents(get);
    expect(replayed.every((e) => e.id !== undefined && e.id !== priming)).toBe(true);
    expect(messagesOf(replayed)).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'missed' }] } },
    ]);
  });

  it('carries on a call still running: the answer arrives on the resumed stream', async () => {
    const http = await start();
    const session = await openSession(http.url);
    const dropped = new AbortController();
    const call = await post(http.url, session.id, echoCall(2, 'later', 500), dropped.signal);
    const priming = expectPriming((await readEvents(call, (events) => events.length >= 1))[0], 1_000);
    dropped.abort();

    const get = await resume(http.url, session.id, priming);
    expect(get.status).toBe(200);
    expect(messagesOf(await readEvents(get))).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'later' }] } },
    ]);
  });

  it('replays nothing after the last event of a finished stream', async () => {
    const http = await start();
    const session = await openSession(http.url);
    const events = await readEvents(await post(http.url, session.id, echoCall(2, 'done')));
    const get = await resume(http.url, session.id, events.at(-1)?.id as string);
    expect(get.status).toBe(200);
    expect(await readEvents(get)).toEqual([]);
  });

  it("refuses another session's event id and an unknown one with 400, replaying nothing", async () => {
    const http = await start();
    const alice = await openSession(http.url);
    const bob = await openSession(http.url);
    const dropped = new AbortController();
    const call = await post(http.url, alice.id, echoCall(2, 'for alice only', 200), dropped.signal);
    const priming = expectPriming((await readEvents(call, (events) => events.length >= 1))[0], 1_000);
    dropped.abort();
    await sleep(400);

    for (const [session, id] of [
      [bob.id, priming],
      [bob.id, alice.events[0]?.id as string],
      [alice.id, 'AAAAAAAAAAAAAAAAAAAAAA'],
    ] as const) {
      const get = await resume(http.url, session, id);
      expect(get.status).toBe(400);
      expect(await get.text()).not.toContain('for alice only');
    }
    // Alice herself still gets her answer.
    const mine = await resume(http.url, alice.id, priming);
    expect(messagesOf(await readEvents(mine))).toMatchObject([
      { id: 2, result: { content: [{ text: 'for alice only' }] } },
    ]);
  });
});

describe('an SDK client', () => {
  it('resumes a call whose stream the server closed mid-call, and gets the answer', async () => {
    let closeSse: (() => void) | undefined;
    const http = await start({
      resumption: { retryMs: 100 },
      factory: () => {
        const mcp = new McpServer({ name: 'poll-test', version: '1.0.0' }, { capabilities: { tools: {} } });
        mcp.registerTool(
          'slow',
          { description: 'Closes its own stream, then answers.', inputSchema: z.object({}) },
          async (_args, ctx) => {
            closeSse = ctx.http?.closeSSE;
            closeSse?.();
            await sleep(300);
            return { content: [{ type: 'text', text: 'answered after the stream closed' }] };
          },
        );
        return mcp;
      },
    });
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    const client = new Client({ name: 'resume-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'slow', arguments: {} });
      expect(closeSse).toBeTypeOf('function');
      expect(result.content).toEqual([{ type: 'text', text: 'answered after the stream closed' }]);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});
