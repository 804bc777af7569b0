/**
 * Socket timeouts (seen with SDK 2.4): a slow-header or endless-body client is cut off, while
 * long-lived SSE responses (the 2025 GET stream, a 2026 listen stream) outlive the request
 * timeout, which only covers receiving the request.
 */
import { connect } from 'node:net';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpServerHandle, type HttpServerOptions, startHttpServer } from '../src/runner/http-server.js';
import {
  callEcho,
  connectClient,
  echoFactory,
  expectGoodClients,
  type FactoryRecord,
  modernEchoCall,
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

/**
 * Writes `head`, then `drip()` every `everyMs` until the server closes the socket; resolves with
 * what the server said and how long after connecting it closed (a monotonic clock). It has no
 * deadline of its own: a server that never cuts the client leaves the test to its timeout, and
 * `signal` (the test's) then ends the socket.
 */
function dripUntilClosed(
  port: number,
  head: string,
  drip: () => string,
  everyMs: number,
  signal: AbortSignal,
) {
  return new Promise<{ waited: number; answer: string }>((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c) => received.push(c));
    socket.on('error', () => undefined);
    const timer = setInterval(() => socket.write(drip()), everyMs);
    signal.addEventListener('abort', () => socket.destroy(), { once: true });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ waited: performance.now() - started, answer: Buffer.concat(received).toString('latin1') });
    });
    socket.write(head);
  });
}

// How soon the cut came is not asserted (a loaded machine stretches it); Node's own defaults (60 s
// for headers, 300 s for a request) are far past these tests' timeouts, so a server that did not
// apply the configured timeouts fails them. That the cut came no sooner than the configured timeout
// is asserted: the server measures from after the client's clock started, both clocks monotonic,
// so that bound cannot flake, and it shows the timeout cut the client, not another refusal. (Node
// answers 408, but the answer can be lost when a drip meets the closed socket, hence the '' case.)
const CLOCK_ROUNDING_MS = 10;
describe('slow clients', () => {
  it('cuts off a client sending one header byte every 200 ms', { timeout: 30_000 }, async ({ signal }) => {
    const http = await start({ headersTimeoutMs: 1_000 });
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nX-Slow: `;
    const { waited, answer } = await dripUntilClosed(http.port, head, () => 'a', 200, signal);
    expect(waited).toBeGreaterThanOrEqual(1_000 - CLOCK_ROUNDING_MS);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    await expectGoodClients(http.url);
  });

  it('cuts off a client whose chunked body never ends', { timeout: 30_000 }, async ({ signal }) => {
    const http = await start({ headersTimeoutMs: 500, requestTimeoutMs: 1_500 });
    const head =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nAccept: application/json, text/event-stream\r\n` +
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const { waited, answer } = await dripUntilClosed(http.port, head, () => '1\r\n \r\n', 100, signal);
    expect(waited).toBeGreaterThanOrEqual(1_500 - CLOCK_ROUNDING_MS);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
    await expectGoodClients(http.url);
  });
});

describe('long-lived streams', () => {
  it('keeps the 2025 GET stream and a 2026 listen stream open past the request timeout', async () => {
    const record = newRecord();
    let handler: McpHttpHandler | undefined;
    const http = await start(
      {
        headersTimeoutMs: 300,
        requestTimeoutMs: 600,
        onModernHandler: (h) => {
          handler = h;
        },
      },
      record,
    );
    const legacy = await connectClient(http.url, 'legacy');
    const modern = await connectClient(http.url, 'modern');
    const seen: string[] = [];
    legacy.client.setNotificationHandler('notifications/tools/list_changed', () => {
      seen.push('legacy');
    });
    modern.client.setNotificationHandler('notifications/resources/updated', () => {
      seen.push('modern');
    });
    const sub = await modern.client.listen({ resourceSubscriptions: ['note://a'] });

    await sleep(2_000); // several request timeouts and connection sweeps

    record.legacy[0]?.sendToolListChanged();
    handler?.notify.resourceUpdated('note://a');
    await expect.poll(() => [...seen].sort()).toEqual(['legacy', 'modern']);
    await callEcho(legacy.client, 'after the wait');
    await sub.close();
    await legacy.close();
    await modern.close();
  });

  it('still answers a slow tool call after the request timeout', async () => {
    const http = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const call = modernEchoCall(1, 'slow', 1_500);
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
    const answer = (await response.json()) as { result: { content: { text: string }[] } };
    expect(answer.result.content[0]?.text).toBe('slow');
  });
});
