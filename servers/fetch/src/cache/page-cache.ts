/**
 * Fetched pages, kept so that reading page 2 of a document (`start_index`) does not download it
 * again, and revalidated with a conditional GET once they are older than `freshForMs`: a 304
 * keeps the entry (and its Markdown), anything else replaces it. Only complete 200 responses
 * are stored, never a `Cache-Control: no-store` one; the cache is bounded by entries and bytes.
 */
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
}

/** Bounds and freshness of a {@link PageCache}. */
export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** Younger entries are served without asking the server; older ones are revalidated. */
  freshForMs?: number;
  /** The clock, replaceable in tests. */
  now?: () => number;
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

/**
 * The page cache and the fetch that goes through it.
 *
 * @example
 * ```ts
 * const pages = new PageCache({ maxEntries: 64, maxBytes: 32 * 1024 * 1024 });
 * const { page, source } = await pages.fetch(client, 'https://example.com/long-article');
 * ```
 */
export class PageCache {
  readonly #cache: LruCache<string, CachedPage>;
  readonly #freshForMs: number;
  readonly #now: () => number;

  constructor(options: PageCacheOptions = {}) {
    this.#cache = new LruCache({
      maxEntries: options.maxEntries ?? 64,
      maxWeight: options.maxBytes ?? 32 * 1024 * 1024,
      weigh,
    });
    this.#freshForMs = options.freshForMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Entries held. */
  get size(): number {
    return this.#cache.size;
  }

  /** Bytes held (approximately). */
  get bytes(): number {
    return this.#cache.weight;
  }

  /** The stored page for a URL, if any, fresh or not. */
  get(url: string): CachedPage | undefined {
    return this.#cache.get(url);
  }

  /** Stores Markdown made from a stored page, so later pages of it reuse the conversion. */
  setMarkdown(url: string, markdown: string): void {
    const page = this.#cache.peek(url);
    if (page) this.#cache.set(url, { ...page, markdown });
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
    const now = this.#now();
    const known = this.#cache.get(url);
    if (known && now - known.fetchedAt < this.#freshForMs) return { page: known, source: 'cache' };
    const conditional =
      known && (known.etag || known.lastModified)
        ? {
            ...(known.etag ? { etag: known.etag } : {}),
            ...(known.lastModified ? { lastModified: known.lastModified } : {}),
          }
        : undefined;
    const result = await client.fetch(url, { ...options, ...(conditional ? { conditional } : {}) });
    if (result.status === 304 && known) {
      const page = { ...known, fetchedAt: now };
      this.#cache.set(url, page);
      return { page, source: 'revalidated' };
    }
    const page: CachedPage = {
      url,
      finalUrl: result.url,
      status: result.status,
      contentType: result.contentType,
      body: result.body,
      fetchedAt: now,
      ...(result.etag ? { etag: result.etag } : {}),
      ...(result.lastModified ? { lastModified: result.lastModified } : {}),
    };
    if (storable(result.status, result.headers, result.truncated)) this.#cache.set(url, page);
    else this.#cache.delete(url);
    return { page, source: 'network' };
  }
}
