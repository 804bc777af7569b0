/**
 * The watch of a subscribed cached page: every `revalidateIntervalMs` (see PageCache) it asks the
 * page's server again with a conditional GET through the guarded client, so the address policy,
 * the redirect checks and the limits all apply as for any fetch, and robots.txt too unless the
 * operator turned it off (polling a page is automated fetching). The version tag is the digest of
 * the body: a 304, or the same bytes again, is no change. A page that is not cached is never
 * requested; it gets a tag once something fetches it.
 */
import { pollWatch, type WatchFactory } from '@mcpkit/core/subscriptions';
import type { FetchLookup } from '../context.js';
import { urlFromCacheUri } from './cache-uri.js';
import { pageDigest } from './page-digest.js';

/**
 * The watch for one `fetch://cache/…` URI. Throws a `UserError` for a URI that names no URL,
 * which the subscription answers with "cannot be watched".
 *
 * @example
 * ```ts
 * export const cachedPage = defineResourceTemplate({ …, watch: watchCachedPage });
 * ```
 */
export function watchCachedPage(uri: string, lookup: FetchLookup): WatchFactory {
  const url = urlFromCacheUri(uri);
  const { context, app } = lookup;
  // The first tag is the copy the subscriber has seen, taken without a request.
  let started = false;
  return pollWatch({
    intervalMs: context.pages.revalidateIntervalMs,
    log: app.log,
    version: async (_uri, signal) => {
      const known = context.pages.peek(url);
      if (!started || !known) {
        started = true;
        return known && pageDigest(known);
      }
      if (context.robots) await context.robots.assertAllowed(url, signal);
      // Replaced, or removed because the server said it is gone (404, 410, no-store): the cache
      // tells the resources itself, and they announce what changed, once.
      await context.pages.revalidate(context.client, url, { signal });
      const now = context.pages.peek(url);
      return now && pageDigest(now);
    },
  });
}
