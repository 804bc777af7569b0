/**
 * What the cache's 'stored' events announce, heard through a recording hub (no debounce, no
 * client): a new page is a list change and an update of its URI; the same bytes stored again
 * announce nothing; changed bytes announce both; a page evicted or gone is an update of its URI.
 * The cache dispatches the events itself: the tests only fetch through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache, STORED } from '../src/cache/page-cache.js';
import { linkCacheNotifications } from '../src/resources/cache-notifications.js';
import { cacheUri } from '../src/resources/cache-uri.js';
import { testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';

describe('cache events', () => {
  let server: LocalServer;
  let body = 'first';
  let gone = false;
  beforeAll(async () => {
    server = await startServer({
      '/a': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(body);
      },
      '/b': text('b', 'text/plain'),
      '/c': text('c', 'text/plain'),
      // 200 with an ETag; 304 when asked with it; 404 once `gone` is set.
      '/tagged': (req, res) => {
        if (gone) res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
        else if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
        else res.writeHead(200, { 'content-type': 'text/plain', etag: '"v1"' }).end('tagged');
      },
      '/no-store': text('private', 'text/plain', { 'cache-control': 'no-store' }),
    });
  });
  afterAll(() => server.close());

  const setup = (maxEntries = 10) => {
    const client = testClient({ dns: { 'site.test': ['127.0.0.1'] }, allowHosts: ['site.test'] });
    // freshForMs 0: every fetch asks the server again, as a stale entry would.
    const pages = new PageCache({ maxEntries, freshForMs: 0 });
    const heard: string[] = [];
    linkCacheNotifications(pages, {
      listChanged: (kind) => void heard.push(`list ${kind}`),
      resourceUpdated: (uri) => void heard.push(`updated ${uri}`),
    });
    const store = async (path: string) => {
      const url = server.url(path, 'site.test');
      await pages.fetch(client, url);
      return url;
    };
    return { pages, client, heard, store, close: () => client.close() };
  };

  it('announces a new page, nothing for the same bytes, and a change', async () => {
    const { heard, store, close } = setup();
    body = 'first';
    const a = await store('/a');
    expect(heard).toEqual(['updated ' + cacheUri(a), 'list resources']);
    heard.length = 0;
    await store('/a');
    expect(heard).toEqual([]);
    body = 'second';
    await store('/a');
    expect(heard).toEqual(['updated ' + cacheUri(a), 'list resources']);
    await close();
  });

  it('dispatches stored once per change of an entry, and the change is announced once', async () => {
    const { pages, client, heard, close } = setup();
    const events: string[] = [];
    pages.addEventListener(STORED, (event) => events.push((event as CustomEvent<string>).detail));
    const url = server.url('/tagged', 'site.test');
    gone = false;
    await pages.fetch(client, url);
    expect(events).toEqual([url]);
    expect(heard).toEqual([`updated ${cacheUri(url)}`, 'list resources']);
    // A 304 changes nothing: no event, nothing announced.
    expect((await pages.revalidate(client, url))?.source).toBe('revalidated');
    expect(events).toEqual([url]);
    // Gone: the entry is removed, which is one more event and one announcement.
    gone = true;
    await pages.revalidate(client, url);
    expect(pages.peek(url)).toBeUndefined();
    expect(events).toEqual([url, url]);
    expect(heard).toEqual([
      `updated ${cacheUri(url)}`,
      'list resources',
      `updated ${cacheUri(url)}`,
      'list resources',
    ]);
    // A response never stored (no-store) leaves the cache as it was: no event.
    await pages.fetch(client, server.url('/no-store', 'site.test'));
    expect(events).toHaveLength(2);
    await close();
  });

  it('links once however often it is asked', async () => {
    const { pages, heard, store, close } = setup();
    linkCacheNotifications(pages, {
      listChanged: () => void heard.push('second listener'),
      resourceUpdated: () => void heard.push('second listener'),
    });
    await store('/b');
    expect(heard).not.toContain('second listener');
    expect(heard).toHaveLength(2);
    await close();
  });

  it('tells the subscribers of a page the cache evicted', async () => {
    const { heard, store, close } = setup(1);
    const b = await store('/b');
    heard.length = 0;
    const c = await store('/c');
    expect(heard.sort()).toEqual(
      ['list resources', `updated ${cacheUri(b)}`, `updated ${cacheUri(c)}`].sort(),
    );
    await close();
  });
});
