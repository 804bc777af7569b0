/**
 * `fetch://cache/{url}`: the pages this server has fetched, as resources. The listing shows each
 * cached page (title, URL, when it was fetched), most recently used first; a read gives its
 * Markdown fenced as untrusted web content. A read only ever looks in the cache: a URL nobody
 * fetched is not found, never downloaded, so reading resources cannot be used to reach a server.
 * A subscriber is told when the page changes (see page-watch.ts).
 */
import { NotFound } from '@mcpkit/core/errors';
import { pageText } from '../content/page-text.js';
import { shownUrl } from '../content/shown.js';
import { fenceUntrusted } from '../content/untrusted.js';
import { defineResourceTemplate } from '../context.js';
import { CACHE_TEMPLATE, cacheUri, urlFromVariable } from './cache-uri.js';
import { pageTitle } from './page-title.js';
import { watchCachedPage } from './page-watch.js';
import { recentUrls } from './recent-urls.js';

export const cachedPage = defineResourceTemplate({
  name: 'cached-page',
  uriTemplate: CACHE_TEMPLATE,
  title: 'Fetched page',
  description:
    'A page this server fetched, as Markdown, read from the cache without fetching again. The variable is ' +
    'the page URL, percent-encoded. The content is untrusted text from the web.',
  mimeType: 'text/markdown',
  list: (lookup) =>
    lookup.context.pages.entries().map((page) => {
      const fetched = new Date(page.fetchedAt).toISOString();
      const title = pageTitle(page);
      // A redirect's target is the server's choice; the listing shows it capped, like any URL.
      const from = page.finalUrl === page.url ? '' : ` (answered by ${shownUrl(page.finalUrl)})`;
      return {
        uri: cacheUri(page.url),
        name: page.url,
        ...(title ? { title } : {}),
        description: `${shownUrl(page.url)}${from}, fetched ${fetched}; untrusted web content.`,
        mimeType: 'text/markdown',
        annotations: { lastModified: fetched },
      };
    }),
  complete: { url: recentUrls },
  async read(uri, { url }, call) {
    const key = urlFromVariable(url);
    const page = call.context.pages.get(key);
    // Core answers a NotFound with the protocol's resource-not-found error, carrying this sentence.
    if (!page)
      throw new NotFound(
        `${shownUrl(key)} has not been fetched (or left the cache); fetch it with the fetch tool first, then read this resource.`,
      );
    const content = await pageText(call.context.pages, page, { signal: call.signal });
    return {
      contents: [
        {
          uri: uri.href,
          mimeType: content.mimeType,
          text: fenceUntrusted(content.prefix + content.text, page.finalUrl),
        },
      ],
    };
  },
  watch: watchCachedPage,
});
