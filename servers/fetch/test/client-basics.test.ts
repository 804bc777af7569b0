/**
 * Happy paths of the guarded client: an allowed host is fetched, redirects on the same origin are
 * followed, progress is reported, custom headers stay on their origin, conditional requests get
 * their 304, cancellation stops a download, truncation keeps what fits, and https works with an
 * extra CA. Every request goes to the local server on 127.0.0.1, reached through the allowlist.
 */
import { gzipSync } from 'node:zlib';
import { CancelledError } from '@mcpkit/core/progress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchProgress } from '../src/net/body-reader.js';
import { DEFAULT_USER_AGENT } from '../src/net/guarded-client.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, redirect, startServer, text } from './support/local-server.js';

let server: LocalServer;
let secure: LocalServer;

beforeAll(async () => {
  server = await startServer({
    '/page': text('<h1>Hello</h1>'),
    '/moved': redirect('/page', 301),
    '/gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync('compressed text'));
    },
    '/sized': text('x'.repeat(10_000), 'text/plain', { 'content-length': '10000' }),
    '/etag': (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' });
        res.end();
        return;
      }
      res.writeHead(200, {
        etag: '"v1"',
        'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT',
        'content-type': 'text/plain',
      });
      res.end('fresh');
    },
    '/endless': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
      res.on('close', () => clearInterval(timer));
    },
    '/echo': text('echo', 'text/plain'),
  });
  server.route('/to-other', redirect(server.url('/echo', 'other.test')));
  secure = await startServer({ '/s': text('secure page', 'text/plain') }, true);
});

afterAll(async () => {
  await server.close();
  await secure.close();
});

const dns = { 'site.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'], 'secure.test': ['127.0.0.1'] };

describe('guarded client happy paths', () => {
  it('fetches an allowed host and reports the final URL after a same-origin redirect', async () => {
    const client = testClient({ dns, allowHosts: ['site.test'] });
    const result = await client.fetch(server.url('/moved', 'site.test'));
    expect(result.status).toBe(200);
    expect(new TextDecoder().decode(result.body)).toBe('<h1>Hello</h1>');
    expect(result.url).toBe(server.url('/page', 'site.test'));
    expect(result.redirects).toEqual([server.url('/moved', 'site.test')]);
    expect(new Set(client.resolver.lookups)).toEqual(new Set(['site.test']));
    await client.close();
  });

  it('reaches 127.0.0.1 through --allow-cidr, in every spelling of the address', async () => {
    const client = testClient({ allowCidrs: ['127.0.0.1/32'] });
    for (const host of ['127.0.0.1', '127.1', '2130706433', '[::ffff:127.0.0.1]']) {
      const result = await client.fetch(server.url('/page', host));
      expect(result.status).toBe(200);
    }
    await client.close();
  });

  it('sends the configured User-Agent and the default one otherwise', async () => {
    const custom = testClient({ dns, allowHosts: ['site.test'], userAgent: 'TestAgent/2' });
    await custom.fetch(server.url('/page', 'site.test'));
    expect(server.lastHeaders('/page')?.['user-agent']).toBe('TestAgent/2');
    await custom.close();
    const plain = testClient({ dns, allowHosts: ['site.test'] });
    await plain.fetch(server.url('/page', 'site.test'));
    expect(server.lastHeaders('/page')?.['user-agent']).toBe(DEFAULT_USER_AGENT);
    await plain.close();
  });

  it('decompresses gzip and counts progress with the declared length when not coded', async () => {
    const client = testClient({ dns, allowHosts: ['site.test'] });
    const gz = await client.fetch(server.url('/gz', 'site.test'));
    expect(new TextDecoder().decode(gz.body)).toBe('compressed text');
    const seen: FetchProgress[] = [];
    const sized = await client.fetch(server.url('/sized', 'site.test'), { onProgress: (p) => seen.push(p) });
    expect(sized.body.byteLength).toBe(10_000);
    expect(seen.at(-1)).toEqual({ received: 10_000, total: 10_000 });
    await client.close();
  });

  it('revalidates with If-None-Match and receives 304 without a body', async () => {
    const client = testClient({ dns, allowHosts: ['site.test'] });
    const first = await client.fetch(server.url('/etag', 'site.test'));
    expect(first.etag).toBe('"v1"');
    expect(first.lastModified).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    const again = await client.fetch(server.url('/etag', 'site.test'), { conditional: { etag: first.etag } });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    expect(server.lastHeaders('/etag')?.['if-none-match']).toBe('"v1"');
    await client.close();
  });

  it('sends custom headers on the first origin and drops them after a cross-origin redirect', async () => {
    const client = testClient({ dns, allowHosts: ['site.test', 'other.test'] });
    await client.fetch(server.url('/page', 'site.test'), { headers: { authorization: 'Bearer s3cret' } });
    expect(server.lastHeaders('/page')?.authorization).toBe('Bearer s3cret');
    const result = await client.fetch(server.url('/to-other', 'site.test'), {
      headers: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k' },
      conditional: { etag: '"v1"' },
    });
    expect(result.status).toBe(200);
    const seen = server.lastHeaders('/echo');
    expect(seen?.authorization).toBeUndefined();
    expect(seen?.['x-api-key']).toBeUndefined();
    expect(seen?.['if-none-match']).toBeUndefined();
    expect(seen?.host).toBe(`other.test:${server.port}`);
    await client.close();
  });

  it('refuses transport headers a caller tries to set', async () => {
    const client = testClient({ dns, allowHosts: ['site.test'] });
    for (const name of ['Host', 'Proxy-Authorization', 'Transfer-Encoding', 'Connection']) {
      const error = await rejection(
        client.fetch(server.url('/page', 'site.test'), { headers: { [name]: 'x' } }),
      );
      expect(error.message).toMatch(/cannot be set/);
    }
    expect(server.hits('/never')).toBe(0);
    await client.close();
  });

  // CancelledError proves the cancel stopped it: unheeded, the endless body would end in the
  // 5 s total timeout's refusal instead. How soon it stopped is not asserted.
  it('stops a download when the caller cancels', async () => {
    const client = testClient({
      dns,
      allowHosts: ['site.test'],
      limits: { maxBytes: 1e9, totalTimeoutMs: 5_000 },
    });
    const controller = new AbortController();
    const error = await rejection(
      client.fetch(server.url('/endless', 'site.test'), {
        signal: controller.signal,
        onProgress: (p) => p.received > 8_000 && controller.abort(),
      }),
    );
    expect(error).toBeInstanceOf(CancelledError);
    await client.close();
  });

  it('keeps what fits under the cap when truncation is asked for', async () => {
    const client = testClient({ dns, allowHosts: ['site.test'], limits: { maxBytes: 4_096 } });
    const result = await client.fetch(server.url('/endless', 'site.test'), { truncate: true });
    expect(result.truncated).toBe(true);
    expect(result.body.byteLength).toBe(4_096);
    await client.close();
  });

  it('fetches https with an extra CA and checks the name on the certificate', async () => {
    // A TLS handshake on a loaded 2-core machine can outlast the attack tests' 300 ms limits.
    const limits = { connectTimeoutMs: 10_000, firstByteTimeoutMs: 10_000, totalTimeoutMs: 20_000 };
    const client = testClient({ dns, allowHosts: ['secure.test'], limits });
    const result = await client.fetch(secure.url('/s', 'secure.test'));
    expect(new TextDecoder().decode(result.body)).toBe('secure page');
    await client.close();
    const wrongName = testClient({ dns, allowHosts: ['site.test'], limits });
    const error = await rejection(wrongName.fetch(secure.url('/s', 'site.test')));
    expect(error.message).toMatch(/certificate/);
    await wrongName.close();
  });
});
