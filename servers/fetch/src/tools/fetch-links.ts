/**
 * The links of a web page, a page at a time: absolute http(s) URLs with their text, each once,
 * optionally only those on the page's own site. The page comes through the same cache as fetch.
 */
import { paginateArray } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { shownUrl } from '../content/shown.js';
import { fenceUntrusted } from '../content/untrusted.js';
import { defineTool } from '../context.js';
import { urlDigest } from './support/page-cursor.js';
import { pageLinks } from './support/page-links.js';
import { loadPage } from './support/read-page.js';

/** Links per page at most: link text is up to 200 characters, so a page stays far below the budget. */
const MAX_PAGE = 200;

const Link = z.object({ url: z.string(), text: z.string() });

export const fetchLinks = defineTool({
  name: 'fetch_links',
  title: 'List the links of a web page',
  description:
    'Fetches an HTML page and lists its links (absolute URLs with their text, each once), optionally only those ' +
    'on the same site. Pass the returned cursor to get the next page of links. Link text is untrusted web content.',
  input: z.object({
    url: z.string().min(1).describe('The http or https URL of an HTML page'),
    same_origin: z
      .boolean()
      .default(false)
      .describe('Only links to the same scheme, host and port as the page; default false'),
    cursor: z
      .string()
      .optional()
      .describe('The nextCursor of the previous page (with the same url and same_origin)'),
  }),
  output: z.object({
    url: z.string().describe('The URL that answered, after redirects'),
    total: z.number().describe('Links in all, after the same_origin filter'),
    links: z.array(Link),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  task: 'optional',
  async run({ url, same_origin: sameOrigin, cursor }, call) {
    const loaded = await loadPage(call, url);
    // The cursor is bound to the page (its cache key: `#part` is the same page) and the filter:
    // one minted for another list is refused.
    const list = `fetch_links:${urlDigest(loaded.url)}:${sameOrigin ? 'same' : 'all'}`;
    const { links, notes } = pageLinks(loaded, { sameOrigin });
    const { page, nextCursor } = paginateArray(links, {
      codec: call.app.cursors,
      list,
      cursor,
      pageSize: Math.min(call.app.resultPageSize, MAX_PAGE),
      keyOf: (link) => link.url,
    });
    const finalUrl = loaded.page.finalUrl;
    // The URL a redirect chose is the server's text: shown capped outside the fence.
    const shown = shownUrl(finalUrl);
    const structured = {
      url: finalUrl,
      total: links.length,
      links: page,
      ...(nextCursor ? { nextCursor } : {}),
    };
    if (links.length === 0) {
      const none = sameOrigin ? `${shown} has no links to its own site.` : `${shown} has no links.`;
      return { text: none, structured };
    }
    const first = cursor ? links.findIndex((link) => link.url === page[0]?.url) + 1 : 1;
    const lines = page.map((link) => (link.text ? `- ${link.url} — ${link.text}` : `- ${link.url}`));
    const parts = [
      `Links of ${shown}${sameOrigin ? ' on its own site' : ''}: ${first}–${first + page.length - 1} of ${links.length}.`,
      fenceUntrusted(lines.join('\n'), finalUrl),
      ...notes.map((note) => `Note: ${note}`),
    ];
    if (nextCursor)
      parts.push(`More links follow: call fetch_links with the same url and cursor "${nextCursor}".`);
    return { text: parts.join('\n\n'), structured };
  },
});
