/**
 * Attack corpus, part 4: servers that try to exhaust memory or time. A 10 GB chunked body, gzip,
 * deflate and brotli bombs (about 1 MB inflating to 1 GB), stacked content codings, a body sent
 * a byte at a time, headers that never come or trickle in, a declared length that never arrives.
 * Each must stop within its limit (bytes counted after decompression, the deadline covering the
 * body) and leave the client working. The proof is the refusal sentence naming the limit that
 * acted and the bytes counted, never a clock: a limit that failed to act leaves the call to the
 * 5 s total timeout (another sentence) or the test to its generous timeout.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, expectStillWorks, OK_HOST } from './support/attack-kit.js';
import { rejection, testClient } from './support/clients.js';
import { type Handler, type LocalServer, startServer, text } from './support/local-server.js';

let server: LocalServer;
const written = new Map<string, number>();

/** Writes `chunk` over and over, honouring backpressure, until `times` or the client leaves. */
function flood(path: string, chunk: Uint8Array, times: number, headers: Record<string, string>): Handler {
  return (_req, res) => {
    res.writeHead(200, headers);
    let sent = 0;
    const pump = () => {
      while (sent < times) {
        sent++;
        written.set(path, (written.get(path) ?? 0) + chunk.byteLength);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => {
      sent = times;
    });
    pump();
  };
}

/** Writes one byte every `ms` until the client leaves. */
function drip(res: ServerResponse, ms: number): void {
  res.flushHeaders();
  const timer = setInterval(() => res.write('x'), ms);
  res.on('close', () => clearInterval(timer));
}

const ZEROS = new Uint8Array(16 * 1024 * 1024);
// 64 gzip members of 16 MiB of zeros each: about 1 MB on the wire, 1 GiB inflated.
const GZIP_MEMBER = gzipSync(ZEROS, { level: 9 });

beforeAll(async () => {
  server = await startServer({
    '/ok': text('fine'),
    '/huge': flood('/huge', new Uint8Array(64 * 1024).fill(97), 160_000, { 'content-type': 'text/plain' }),
    '/gzip-bomb': flood('/gzip-bomb', GZIP_MEMBER, 64, {
      'content-type': 'text/html',
      'content-encoding': 'gzip',
    }),
    '/deflate-bomb': text(deflateSync(ZEROS), 'text/plain', { 'content-encoding': 'deflate' }),
    '/br-bomb': text(brotliCompressSync(ZEROS), 'text/plain', { 'content-encoding': 'br' }),
    '/codings-3': text(gzipSync(gzipSync(gzipSync('x'))), 'text/plain', {
      'content-encoding': 'gzip, gzip, gzip',
    }),
    '/codings-6': text('x', 'text/plain', { 'content-encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' }),
    '/drip': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      drip(res, 1_000);
    },
    '/drip-fast': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      drip(res, 50);
    },
    '/silent': () => undefined,
    '/trickle-headers': (req) => {
      const socket = req.socket;
      socket.write('HTTP/1.1 200 OK\r\n');
      const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 50);
      socket.on('close', () => clearInterval(timer));
    },
    '/short-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(10 * 1024 ** 3) });
      res.write('only this');
    },
    '/lying-length': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10' });
      res.write('x'.repeat(10));
    },
  });
});
afterAll(() => server.close());

const dns = { [OK_HOST]: ['127.0.0.1'], 'site.test': ['127.0.0.1'] };
const CAP = 256 * 1024;

// A limit that failed to act would hang a case: the generous timeout ends it, not a clock here.
describe('attack corpus: bombs and slow servers', { timeout: 30_000 }, () => {
  it.each([
    ['/huge', 'a 10 GB chunked body'],
    ['/gzip-bomb', 'a gzip bomb'],
    ['/deflate-bomb', 'a deflate bomb'],
    ['/br-bomb', 'a brotli bomb'],
  ])('stops %s (%s) at the byte cap on the decompressed stream', async (path) => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'], limits: { totalTimeoutMs: 5_000 } });
    let received = 0;
    const error = await rejection(
      client.fetch(server.url(path, 'site.test'), { onProgress: (p) => (received = p.received) }),
    );
    expectRefusal(error, new RegExp(`larger than ${CAP} bytes`));
    expect(received).toBeLessThanOrEqual(CAP);
    expect(written.get(path) ?? 0).toBeLessThan(64 * 1024 * 1024);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('refuses three stacked content codings (our cap is 2)', async () => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const error = await rejection(client.fetch(server.url('/codings-3', 'site.test')));
    expectRefusal(error, /stacked 3 content codings/);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('refuses six stacked content codings (undici 7.30 itself stops at more than 5)', async () => {
    const client = testClient({
      dns,
      allowHosts: [OK_HOST, 'site.test'],
      limits: { maxContentCodings: 10 },
    });
    const error = await rejection(client.fetch(server.url('/codings-6', 'site.test')));
    expectRefusal(error, /too many content codings/);
    await expectStillWorks(client, server);
    await client.close();
  });

  it.each([
    ['/drip', /took longer than 500 ms/],
    ['/drip-fast', /took longer than 500 ms/],
    ['/short-body', /took longer than 500 ms/],
  ])('stops a slow body at %s with the total deadline', async (path, pattern) => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const error = await rejection(client.fetch(server.url(path, 'site.test')));
    expectRefusal(error, pattern);
    await expectStillWorks(client, server);
    await client.close();
  });

  it.each([
    ['/silent', 'never sends headers'],
    ['/trickle-headers', 'trickles header lines forever'],
  ])('stops a server that %s with the first-byte timer', async (path) => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const error = await rejection(client.fetch(server.url(path, 'site.test')));
    expectRefusal(error, /sent no response within 300 ms/);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('reads no more than the declared length when the server sends extra bytes', async () => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const result = await client.fetch(server.url('/lying-length', 'site.test'));
    expect(result.body.byteLength).toBe(10);
    await client.close();
  });

  it('covers every redirect hop with one total deadline', async () => {
    const client = testClient({
      dns,
      allowHosts: [OK_HOST, 'site.test'],
      limits: { firstByteTimeoutMs: 400 },
    });
    for (let i = 0; i < 4; i++)
      server.route(`/slow-hop-${i}`, (_req, res) => {
        setTimeout(() => {
          res.writeHead(302, { location: `/slow-hop-${i + 1}` });
          res.end();
        }, 200);
      });
    const error = await rejection(client.fetch(server.url('/slow-hop-0', 'site.test')));
    // Each hop answers within the 400 ms first-byte timer; only a deadline over all hops stops it.
    expectRefusal(error, /took longer than 500 ms/);
    await client.close();
  });
});
