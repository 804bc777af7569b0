/**
 * How a cached page is named as a resource: `fetch://cache/{url}`, the variable being the page's
 * URL itself, percent-encoded as RFC 6570 expansion encodes it. Why the URL and not a digest of
 * it: the URI says which page it names (in a log, a client's UI, a subscription list); a client
 * can build it from a URL it already has, without listing first; completing the variable offers
 * the fetched URLs themselves; and no table from digests back to URLs has to be kept or can go
 * stale. Every spelling of one URL (`%7E` or `~`, upper-case host, a `#fragment`) is decoded and
 * normalised to the cache's key, so it names the same page, and listings show one canonical URI.
 */
import { UserError } from '@mcpkit/core/errors';
import { sanitizeForMessage } from '@mcpkit/core/roots';
import { cacheKey } from '../cache/page-cache.js';

/** The template of the cached pages. */
export const CACHE_TEMPLATE = 'fetch://cache/{url}';

const PREFIX = 'fetch://cache/';

/** The canonical resource URI of a cached URL. */
export function cacheUri(url: string): string {
  return PREFIX + encodeURIComponent(cacheKey(url));
}

/**
 * The cache key named by the template's `url` variable (still percent-encoded, as matched).
 * Throws a {@link UserError} naming what is wrong with it.
 */
export function urlFromVariable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new UserError(
      'The URL in this fetch://cache/ URI has a broken %-escape; use a URI from resources/list.',
    );
  }
  let url: URL;
  try {
    url = new URL(decoded);
  } catch {
    throw new UserError(
      `"${sanitizeForMessage(decoded)}" is not a URL; a fetch://cache/ URI holds a percent-encoded http or https URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(
      `Only http and https pages are cached, not ${url.protocol} URLs; use a URI from resources/list.`,
    );
  return cacheKey(url.href);
}

/** The cache key named by a whole `fetch://cache/…` URI (as a watch gets it). */
export function urlFromCacheUri(uri: string): string {
  if (!uri.startsWith(PREFIX) || uri.slice(PREFIX.length).includes('/'))
    throw new UserError(`"${uri.slice(0, 200)}" is not a fetch://cache/ URI; use a URI from resources/list.`);
  return urlFromVariable(uri.slice(PREFIX.length));
}
