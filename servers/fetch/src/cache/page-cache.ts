/**
 * Fetched pages, kept so that reading page 2 of a document (`start_index`) does not download it
 * again, and revalidated with a conditional GET once they are older than `freshForMs`: a 304
 * keeps the entry (and its Markdown), anything else replaces it. Only complete 200 responses
 * are stored, never a `Cache-Control: no-store` one; the cache is bounded by entries and bytes.
 * The same entries back the `fetch://cache/…` resources, whose subscriptions call
 * {@link PageCache.revalidate} every `revalidateIntervalMs`.
 *
 * The cache itself says when an entry changed: a `'stored'` event (a `CustomEvent` whose detail
 * is the URL) each time a response is stored or replaces an entry, and when a response removes
 * one. Whoever fetched the page has nothing to announce; resources/cache-notifications.ts turns
 * the events into protocol notifications.
 */
import { UserError } from '@mcpkit/core/errors';
import type { GuardedClient, RequestOptions } from '../net/guarded-client.js';
import { LruCache } from './lru.js';

/** One stored response. */
export interface CachedPage {
  /** The URL asked for (the cache key). */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  etag?: string;
  lastModified?: string;
  /** When it was fetched or last revalidated (ms since the epoch). */
  fetchedAt: number;
  /** Markdown made from the body, kept so page 2 is not converted again. */
  markdown?: string;
  /** The page's title, when the conversion found one. */
  title?: string;
}

/** Bounds and freshness of a {@link PageCache}. */
export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Younger entries are served without asking the server; older ones are revalidated. */
  freshForMs?: number;
  /** How often a subscribed page is revalidated; 60 s by default. */
  revalidateIntervalMs?: number;
  /** The clock, replaceable in tests. */
  now?: () => number;
}

/** The revalidation interval of a subscribed page when none is configured. */
export const DEFAULT_REVALIDATE_INTERVAL_MS = 60_000;

/**
 * The key a URL is stored under: its WHATWG serialisation without the fragment, which is never
 * sent to the server. `HTTP://Example.com` and `http://example.com/#top` are one page, and the
 * cache resources name each page once. A string that does not parse is kept as it is (the
 * client refuses it anyway).
 */
export function cacheKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

function checkInterval(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new RangeError(`revalidateIntervalMs must be a positive number, got ${ms}`);
  }
  return ms;
}

/** Where a page came from. */
export type PageSource = 'cache' | 'revalidated' | 'network';

function weigh(page: CachedPage): number {
  return (
    page.body.byteLength + 2 * (page.markdown?.length ?? 0) + page.url.length + page.finalUrl.length + 256
  );
}

function storable(
  status: number,
  headers: { get(name: string): string | null },
  truncated: boolean,
): boolean {
  const control = headers.get('cache-control')?.toLowerCase() ?? '';
  return status === 200 && !truncated && !/\bno-store\b/.test(control);
}

/** The event a {@link PageCache} dispatches when an entry was stored, replaced or removed. */
export const STORED = 'stored';

/**
 * The page cache and the fetch that goes through it.
 *
 * @example
 * ```ts
 * const pages = new PageCache({ maxEntries: 64, maxBytes: 32 * 1024 * 1024 });
 * pages.addEventListener(STORED, (event) => console.log((event as CustomEvent<string>).detail));
 * const { page, source } = await pages.fetch(client, 'https://example.com/long-article');
 * ```
 */
export class PageCache extends EventTarget {
  readonly #cache: LruCache<string, CachedPage>;
  readonly #freshForMs: number;
  readonly #now: () => number;
  #revalidateIntervalMs: number;

  constructor(options: PageCacheOptions = {}) {
    super();
    this.#cache = new LruCache({
      maxEntries: options.maxEntries ?? 64,
      maxWeight: options.maxBytes ?? 32 * 1024 * 1024,
      weigh,
    });
    this.#freshForMs = options.freshForMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
    this.#revalidateIntervalMs = checkInterval(
      options.revalidateIntervalMs ?? DEFAULT_REVALIDATE_INTERVAL_MS,
    );
  }

  /**
   * How often a subscribed page is revalidated. Settable, so the server can take it from its
   * options and tests can shorten it; a watch reads it when it starts.
   */
  get revalidateIntervalMs(): number {
    return this.#revalidateIntervalMs;
  }

  set revalidateIntervalMs(ms: number) {
    this.#revalidateIntervalMs = checkInterval(ms);
  }

  /** Entries held. */
  get size(): number {
    return this.#cache.size;
  }

  /** Bytes held (approximately). */
  get bytes(): number {
    return this.#cache.weight;
  }

  /** The stored page for a URL, if any, fresh or not; it becomes the most recently used. */
  get(url: string): CachedPage | undefined {
    return this.#cache.get(cacheKey(url));
  }

  /** The stored page for a URL without touching its recency (listings, watches). */
  peek(url: string): CachedPage | undefined {
    return this.#cache.peek(cacheKey(url));
  }

  /**
   * Whether an entry is stored under `key`, a key exactly as {@link cacheKey} made it (the URL of
   * a stored page, the detail of a `'stored'` event). Unlike `peek` it parses nothing: the cache
   * announcer asks it for every URL it announced, on every store.
   */
  holds(key: string): boolean {
    return this.#cache.peek(key) !== undefined;
  }

  /** Every stored page, most recently used first. */
  entries(): CachedPage[] {
    return this.#cache.values();
  }

  /**
   * Stores Markdown made from a stored page (and its title, for the resource listing), so later
   * pages of it reuse the conversion. Only Markdown belongs here, never raw content.
   */
  setMarkdown(url: string, markdown: string, title?: string): void {
    const key = cacheKey(url);
    const page = this.#cache.peek(key);
    if (page) this.#cache.set(key, { ...page, markdown, ...(title ? { title } : {}) });
  }

  /**
   * The page for `url`: from the cache while fresh, revalidated with If-None-Match or
   * If-Modified-Since when stale, fetched otherwise. Refusals and limits of the client apply
   * unchanged; a non-200 answer is returned but not stored.
   */
  async fetch(
    client: GuardedClient,
    url: string,
    options: Omit<RequestOptions, 'conditional'> = {},
  ): Promise<{ page: CachedPage; source: PageSource }> {
    const key = cacheKey(url);
    const known = this.#cache.get(key);
    if (known && this.#now() - known.fetchedAt < this.#freshForMs) return { page: known, source: 'cache' };
    return this.#request(client, key, known, options);
  }

  /**
   * Asks the server again about a stored page, fresh or not, with a conditional GET: what a
   * subscription does on its interval. `undefined` when the page is not stored: a page nobody
   * fetched is never requested from here. A 4xx answer removes the page (it is gone); a 429 or
   * 5xx keeps the stored copy and rejects, so a server's bad minute does not empty the cache.
   */
  async revalidate(
    client: GuardedClient,
    url: string,
    options: Omit<RequestOptions, 'conditional'> = {},
  ): Promise<{ page: CachedPage; source: Exclude<PageSource, 'cache'> } | undefined> {
    const key = cacheKey(url);
    const known = this.#cache.peek(key);
    if (!known) return undefined;
    return this.#request(client, key, known, options, true);
  }

  async #request(
    client: GuardedClient,
    key: string,
    known: CachedPage | undefined,
    options: Omit<RequestOptions, 'conditional'>,
    keepOnServerError = false,
  ): Promise<{ page: CachedPage; source: Exclude<PageSource, 'cache'> }> {
    const now = this.#now();
    const conditional =
      known && (known.etag || known.lastModified)
        ? {
            ...(known.etag ? { etag: known.etag } : {}),
            ...(known.lastModified ? { lastModified: known.lastModified } : {}),
          }
        : undefined;
    const result = await client.fetch(key, { ...options, ...(conditional ? { conditional } : {}) });
    if (result.status === 304 && known) {
      const page = { ...known, fetchedAt: now };
      this.#cache.set(key, page);
      return { page, source: 'revalidated' };
    }
    if (keepOnServerError && (result.status === 429 || result.status >= 500))
      throw new UserError(
        `${new URL(result.url).host} answered ${result.status} when ${key} was revalidated; the stored copy is kept.`,
      );
    // The same bytes again (a server that ignores validators): the conversion still holds.
    const unchanged = known && result.contentType === known.contentType && sameBytes(result.body, known.body);
    const page: CachedPage = {
      url: key,
      finalUrl: result.url,
      status: result.status,
      contentType: result.contentType,
      body: result.body,
      fetchedAt: now,
      ...(result.etag ? { etag: result.etag } : {}),
      ...(result.lastModified ? { lastModified: result.lastModified } : {}),
      ...(unchanged && known.markdown !== undefined ? { markdown: known.markdown } : {}),
      ...(unchanged && known.title !== undefined ? { title: known.title } : {}),
    };
    // Unlike a 304 above, this changes the entry: stored, replaced, or removed (a no-store, failed
    // or too heavy response). Nothing happened only if nothing was stored before or after.
    const had = this.#cache.delete(key);
    const kept = storable(result.status, result.headers, result.truncated) && this.#cache.set(key, page);
    if (kept || had) this.dispatchEvent(new CustomEvent(STORED, { detail: key }));
    return { page, source: 'network' };
  }
}
