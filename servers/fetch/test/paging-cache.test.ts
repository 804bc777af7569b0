/**
 * Paging with the official start_index/max_length semantics (code points, the continuation hint,
 * "no more content"), the LRU bounds, and the page cache: page 2 of a document is served without
 * a second download, a stale entry is revalidated with a conditional GET (304 keeps it), and
 * no-store, non-200 and truncated responses are never stored. What the cache resources need of
 * it: one key per URL, entries by recency, and revalidation on demand that never requests a page
 * it does not hold and keeps its copy through a server's bad minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LruCache } from '../src/cache/lru.js';
import { cacheKey, PageCache } from '../src/cache/page-cache.js';
import { pageBody, paginate } from '../src/paging/paginate.js';
import { testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';

describe('paginate', () => {
  it('cuts pages and points at the next start_index', () => {
    const first = paginate('abcdefghij', 0, 4);
    expect(first).toEqual({
      text: 'abcd',
      startIndex: 0,
      totalChars: 10,
      exhausted: false,
      nextStartIndex: 4,
    });
    expect(pageBody(first)).toBe(
      'abcd\n\n<error>Content truncated. Call the fetch tool with a start_index of 4 to get more content.</error>',
    );
    const last = paginate('abcdefghij', 8, 4);
    expect(last.text).toBe('ij');
    expect(last.nextStartIndex).toBeUndefined();
    expect(pageBody(last)).toBe('ij');
  });

  it('gives no hint when the page ends exactly at the end', () => {
    expect(paginate('abcd', 0, 4).nextStartIndex).toBeUndefined();
  });

  it('answers the official error past the end', () => {
    const past = paginate('abc', 3, 5);
    expect(past.exhausted).toBe(true);
    expect(pageBody(past)).toBe('<error>No more content available.</error>');
    expect(paginate('', 0, 5).exhausted).toBe(true);
  });

  it('counts code points, never splitting a surrogate pair', () => {
    const text = 'a😀b😀c';
    const page = paginate(text, 1, 2);
    expect(page.text).toBe('😀b');
    expect(page.totalChars).toBe(5);
    expect(page.nextStartIndex).toBe(3);
    expect(paginate(text, 3, 10).text).toBe('😀c');
  });

  it('refuses nonsense indexes with a sentence', () => {
    expect(() => paginate('abc', -1, 5)).toThrow(/start_index/);
    expect(() => paginate('abc', 0, 0)).toThrow(/max_length/);
    expect(() => paginate('abc', 1.5, 5)).toThrow(/start_index/);
  });
});

describe('LRU cache', () => {
  it('evicts the least recently used entry by count and by weight', () => {
    const cache = new LruCache<string, string>({ maxEntries: 2, maxWeight: 10, weigh: (v) => v.length });
    cache.set('a', 'aaa');
    cache.set('b', 'bbb');
    cache.get('a');
    cache.set('c', 'ccc');
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual(['aaa', undefined, 'ccc']);
    cache.set('d', 'dddddddd');
    expect(cache.size).toBe(1);
    expect(cache.weight).toBe(8);
    expect(cache.set('huge', 'x'.repeat(11))).toBe(false);
    expect(cache.peek('d')).toBe('dddddddd');
  });

  it('lists values most recently used first, and peeking changes no order', () => {
    const cache = new LruCache<string, string>({ maxEntries: 3, maxWeight: 100 });
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    cache.get('a');
    cache.peek('b');
    expect(cache.values()).toEqual(['A', 'C', 'B']);
  });
});

describe('page cache', () => {
  let server: LocalServer;
  let version = 1;
  beforeAll(async () => {
    server = await startServer({
      '/doc': (req, res) => {
        const etag = `"v${version}"`;
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag });
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain', etag });
        res.end(`document version ${version}`);
      },
      '/dated': (req, res) => {
        if (req.headers['if-modified-since'] === 'Tue, 02 Jan 2024 00:00:00 GMT') {
          res.writeHead(304);
          res.end();
          return;
        }
        res.writeHead(200, {
          'content-type': 'text/plain',
          'last-modified': 'Tue, 02 Jan 2024 00:00:00 GMT',
        });
        res.end('dated');
      },
      '/private': text('secret', 'text/plain', { 'cache-control': 'private, no-store' }),
      '/missing': (_req, res) => {
        res.writeHead(404);
        res.end('gone');
      },
    });
  });
  afterAll(() => server.close());

  const setup = () => {
    let clock = 1_000_000;
    const cache = new PageCache({ freshForMs: 60_000, now: () => clock });
    const client = testClient({ dns: { 'site.test': ['127.0.0.1'] }, allowHosts: ['site.test'] });
    return { cache, client, advance: (ms: number) => (clock += ms) };
  };

  it('serves page 2 from the cache without fetching again', async () => {
    const { cache, client } = setup();
    const url = server.url('/doc', 'site.test');
    const before = server.hits('/doc');
    const first = await cache.fetch(client, url);
    const second = await cache.fetch(client, url);
    expect(first.source).toBe('network');
    expect(second.source).toBe('cache');
    expect(new TextDecoder().decode(second.page.body)).toBe('document version 1');
    expect(server.hits('/doc') - before).toBe(1);
    cache.setMarkdown(url, '# converted');
    expect(cache.get(url)?.markdown).toBe('# converted');
    await client.close();
  });

  it('revalidates a stale entry: 304 keeps it (and its Markdown), a change replaces it', async () => {
    const { cache, client, advance } = setup();
    const url = server.url('/doc', 'site.test');
    await cache.fetch(client, url);
    cache.setMarkdown(url, '# v1');
    advance(120_000);
    const kept = await cache.fetch(client, url);
    expect(kept.source).toBe('revalidated');
    expect(kept.page.markdown).toBe('# v1');
    expect(server.lastHeaders('/doc')?.['if-none-match']).toBe('"v1"');
    version = 2;
    advance(120_000);
    const changed = await cache.fetch(client, url);
    expect(changed.source).toBe('network');
    expect(new TextDecoder().decode(changed.page.body)).toBe('document version 2');
    expect(changed.page.markdown).toBeUndefined();
    await client.close();
  });

  it('revalidates with If-Modified-Since when there is no ETag', async () => {
    const { cache, client, advance } = setup();
    const url = server.url('/dated', 'site.test');
    await cache.fetch(client, url);
    advance(120_000);
    expect((await cache.fetch(client, url)).source).toBe('revalidated');
    await client.close();
  });

  it('never stores no-store or non-200 responses', async () => {
    const { cache, client } = setup();
    await cache.fetch(client, server.url('/private', 'site.test'));
    const missing = await cache.fetch(client, server.url('/missing', 'site.test'));
    expect(missing.page.status).toBe(404);
    expect(cache.size).toBe(0);
    await client.close();
  });

  it('stays within its byte bound', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 2_000 });
    const client = testClient({ dns: { 'site.test': ['127.0.0.1'] }, allowHosts: ['site.test'] });
    server.route('/big', text('x'.repeat(1_500), 'text/plain'));
    server.route('/big2', text('y'.repeat(1_500), 'text/plain'));
    await cache.fetch(client, server.url('/big', 'site.test'));
    await cache.fetch(client, server.url('/big2', 'site.test'));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBeLessThanOrEqual(2_000);
    await client.close();
  });

  it('keys a page by its normalised URL without the fragment', async () => {
    const { cache, client } = setup();
    const url = server.url('/doc', 'site.test');
    expect(cacheKey(`${url.replace('http://site.test', 'HTTP://SITE.TEST')}#part`)).toBe(url);
    expect(cacheKey('not a url')).toBe('not a url');
    await cache.fetch(client, `${url}#intro`);
    const before = server.hits('/doc');
    expect((await cache.fetch(client, url)).source).toBe('cache');
    expect(server.hits('/doc')).toBe(before);
    expect(cache.peek(`${url}#other`)?.url).toBe(url);
    await client.close();
  });

  it('lists entries by recency and keeps a title beside the Markdown', async () => {
    const { cache, client } = setup();
    const doc = server.url('/doc', 'site.test');
    const dated = server.url('/dated', 'site.test');
    await cache.fetch(client, doc);
    await cache.fetch(client, dated);
    expect(cache.entries().map((page) => page.url)).toEqual([dated, doc]);
    cache.peek(doc);
    expect(cache.entries()[0]?.url).toBe(dated);
    cache.setMarkdown(doc, '# Doc', 'The doc');
    expect(cache.get(doc)).toMatchObject({ markdown: '# Doc', title: 'The doc' });
    expect(cache.entries()[0]?.url).toBe(doc);
    await client.close();
  });

  it('revalidates on demand, fresh or not, and never requests a page it does not hold', async () => {
    const { cache, client } = setup();
    const url = server.url('/doc', 'site.test');
    const before = server.hits('/doc');
    expect(await cache.revalidate(client, url)).toBeUndefined();
    expect(server.hits('/doc')).toBe(before);
    await cache.fetch(client, url);
    const again = await cache.revalidate(client, url);
    expect(again?.source).toBe('revalidated');
    expect(server.hits('/doc')).toBe(before + 2);
    expect(server.lastHeaders('/doc')?.['if-none-match']).toBe(`"v${version}"`);
    await client.close();
  });

  it('keeps the Markdown when a server without validators sends the same bytes', async () => {
    const { cache, client } = setup();
    let body = 'same';
    server.route('/plain', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
    });
    const url = server.url('/plain', 'site.test');
    await cache.fetch(client, url);
    cache.setMarkdown(url, 'same, converted', 'Plain');
    expect((await cache.revalidate(client, url))?.page).toMatchObject({
      markdown: 'same, converted',
      title: 'Plain',
    });
    body = 'changed';
    expect((await cache.revalidate(client, url))?.page.markdown).toBeUndefined();
    await client.close();
  });

  it('keeps its copy when revalidation meets a 5xx, and drops a page that is gone', async () => {
    const { cache, client } = setup();
    let status = 200;
    server.route('/flaky', (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`status ${status}`);
    });
    const url = server.url('/flaky', 'site.test');
    await cache.fetch(client, url);
    status = 503;
    await expect(cache.revalidate(client, url)).rejects.toThrow(/answered 503 .*the stored copy is kept/);
    expect(new TextDecoder().decode(cache.peek(url)?.body)).toBe('status 200');
    status = 404;
    expect((await cache.revalidate(client, url))?.page.status).toBe(404);
    expect(cache.peek(url)).toBeUndefined();
    await client.close();
  });

  it('refuses a revalidation interval that is not a positive number', () => {
    expect(new PageCache().revalidateIntervalMs).toBe(60_000);
    const cache = new PageCache({ revalidateIntervalMs: 500 });
    expect(cache.revalidateIntervalMs).toBe(500);
    expect(() => {
      cache.revalidateIntervalMs = 0;
    }).toThrow(RangeError);
    expect(() => new PageCache({ revalidateIntervalMs: Number.NaN })).toThrow(RangeError);
  });
});
