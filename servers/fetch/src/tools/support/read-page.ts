/**
 * How every tool reads a page: the URL checks (one sentence for a bad URL, ftp:, credentials),
 * robots.txt for autonomous fetching unless the operator turned it off, the page cache (so page 2
 * of a document is not downloaded again; it tells the cache resources itself when a page was
 * stored), and progress while it downloads. A page that is not 2xx is refused with its status.
 */
import { UserError } from '@mcpkit/core/errors';
import { type CachedPage, cacheKey, type PageSource } from '../../cache/page-cache.js';
import type { FetchCall } from '../../context.js';
import type { FetchProgress } from '../../net/body-reader.js';
import { checkUrl } from '../../net/url-check.js';

/** A page read through the cache. */
export interface LoadedPage {
  /** The URL asked for, normalised (the cache key). */
  url: string;
  page: CachedPage;
  source: PageSource;
}

/** How one page is read. */
export interface LoadOptions {
  /** Download progress; by default bytes received are reported to the caller. */
  onProgress?: ((progress: FetchProgress) => void) | false;
  /** Refuse, before requesting it, a redirect that leaves the URL's origin (see RequestOptions). */
  sameOrigin?: boolean;
}

/** Reports bytes received (of Content-Length, when the server declared it) as the call's progress. */
export function downloadProgress(call: FetchCall, url: URL): (progress: FetchProgress) => void {
  const message = `Downloading from ${url.host}`;
  return ({ received, total }) =>
    call.progress.report(received, { ...(total !== undefined ? { total } : {}), message });
}

/**
 * Reads `input` for a tool call. Throws a {@link UserError} for a URL the policy refuses, a page
 * robots.txt disallows, a failed download or a status outside 2xx.
 *
 * @example
 * ```ts
 * const { url, page, source } = await loadPage(call, 'https://example.com/article');
 * ```
 */
export async function loadPage(
  call: FetchCall,
  input: string,
  options: LoadOptions = {},
): Promise<LoadedPage> {
  const { context } = call;
  const target = checkUrl(input, context.policy);
  // The fragment never reaches the server: #intro and #refs of one page are one cache entry.
  const url = cacheKey(target.href);
  await context.robots?.assertAllowed(url, call.signal);
  const onProgress =
    options.onProgress === false ? undefined : (options.onProgress ?? downloadProgress(call, target));
  const { page, source } = await context.pages.fetch(context.client, url, {
    signal: call.signal,
    ...(onProgress ? { onProgress } : {}),
    ...(options.sameOrigin ? { sameOrigin: true } : {}),
  });
  if (page.status < 200 || page.status > 299)
    throw new UserError(
      `Failed to fetch ${url}: the server answered with status code ${page.status}; check the URL or try again later.`,
    );
  return { url, page, source };
}
