/**
 * Turns the page cache's `'stored'` events into protocol notifications: `resources/list_changed`
 * when a page enters the cache, changes (its title may change too) or leaves it, and
 * `resources/updated` for the page's URI when its content changed or it left. A page stored again
 * with the same bytes (a refetch after it went stale) announces nothing: no list or resource
 * changed. This is the one place that announces the cache: whoever fetches a page through it
 * announces nothing.
 */
import type { AppView } from '@mcpkit/core/server';
import { type PageCache, STORED } from '../cache/page-cache.js';
import { cacheUri } from './cache-uri.js';
import { pageDigest } from './page-digest.js';

/** The part of the app that announces changes. */
type Announcer = Pick<AppView['hub'], 'listChanged' | 'resourceUpdated'>;

// One listener per cache, however many places ask for it.
const linked = new WeakSet<PageCache>();

/**
 * Makes every `'stored'` event of `pages` announce the change on `hub`. Calling it again for the
 * same cache does nothing. The server calls it once, when the context is made, so every client
 * hears of pages cached before it ever listed a resource.
 *
 * @example
 * ```ts
 * linkCacheNotifications(context.pages, app.hub);
 * await context.pages.fetch(client, url); // → resources/list_changed, and resources/updated for its URI
 * ```
 */
export function linkCacheNotifications(pages: PageCache, hub: Announcer): void {
  if (linked.has(pages)) return;
  linked.add(pages);
  // What each cached URL was announced as; pages stored before the link count as announced.
  const announced = new Map<string, string>();
  for (const page of pages.entries()) announced.set(page.url, pageDigest(page));
  pages.addEventListener(STORED, (event) => {
    const url = String((event as CustomEvent<unknown>).detail);
    const page = pages.peek(url);
    // A page the cache evicted to make room is gone: its subscribers hear it, and the map
    // never outgrows the cache.
    let changed = false;
    for (const key of announced.keys()) {
      if (pages.holds(key)) continue;
      announced.delete(key);
      hub.resourceUpdated(cacheUri(key));
      changed = true;
    }
    const digest = page && pageDigest(page);
    if (page && announced.get(page.url) !== digest) {
      announced.set(page.url, digest as string);
      hub.resourceUpdated(cacheUri(page.url));
      changed = true;
    }
    if (changed) hub.listChanged('resources');
  });
}
