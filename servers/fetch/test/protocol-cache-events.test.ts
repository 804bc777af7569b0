/**
 * What the cache's 'stored' events announce, heard through a recording hub (no debounce, no
 * client): a new page is a list change and an update of its URI; the same bytes stored again
 * announce nothing; changed bytes announce both; a page evicted or gone is an update of its URI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../src/cache/page-cache.js';
import { announceStored, type FetchContext } from '../src/context.js';
import { createAddressPolicy } from '../src/net/address-policy.js';
import { linkCacheNotifications } from '../src/resources/cache-notifications.js';
import { cacheUri } from '../src/resources/cache-uri.js';
import { testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';

describe('cache events', () => {
  let server: LocalServer;
  let body = 'first';
  beforeAll(async () => {
    server = await startServer({
      '/a': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(body);
      },
      '/b': text('b', 'text/plain'),
      '/c': text('c', 'text/plain'),
    });
  });
  afterAll(() => server.close());

  const setup = (maxEntries = 10) => {
    const client = testClient({ dns: { 'site.test': ['127.0.0.1'] }, allowHosts: ['site.test'] });
    // freshForMs 0: every fetch asks the server again, as a stale entry would.
    const context: FetchContext = {
      client,
      policy: createAddressPolicy({ hosts: ['site.test'] }),
      robots: undefined,
      pages: new PageCache({ maxEntries, freshForMs: 0 }),
      cacheEvents: new EventTarget(),
    };
    const heard: string[] = [];
    linkCacheNotifications(context, {
      listChanged: (kind) => void heard.push(`list ${kind}`),
      resourceUpdated: (uri) => void heard.push(`updated ${uri}`),
    });
    const store = async (path: string) => {
      const url = server.url(path, 'site.test');
      await context.pages.fetch(client, url);
      announceStored(context, url);
      return url;
    };
    return { context, heard, store, close: () => client.close() };
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

  it('links once however often it is asked', async () => {
    const { context, heard, store, close } = setup();
    linkCacheNotifications(context, {
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
