/**
 * The `fetch` tool the research loop lends the model: it reads the start page again or one of the
 * start page's links on the same site (scheme, host and port), nothing else, through the same
 * checks, robots.txt and cache as the fetch tool, and at most `maxPages` times per call. A link
 * that redirects to another site is refused before that site is asked anything (the client's
 * `sameOrigin`), and so is a copy an earlier fetch cached after landing elsewhere. Every loop
 * round re-runs the tool calls before it (see core's runToolLoop), which the page cache makes
 * cheap.
 */
import { UserError } from '@mcpkit/core/errors';
import { loopTool } from '@mcpkit/core/sampling';
import * as z from 'zod';
import { cacheKey } from '../../cache/page-cache.js';
import { pageText } from '../../content/page-text.js';
import { shownUrl } from '../../content/shown.js';
import { fenceUntrusted } from '../../content/untrusted.js';
import type { FetchCall } from '../../context.js';
import type { PageLink } from '../../html/links.js';
import { checkUrl } from '../../net/url-check.js';
import { pageBody } from '../../paging/paginate.js';
import { fitPage } from './fit-page.js';
import { type LoadedPage, loadPage } from './read-page.js';

/** Characters and bytes of one page handed to the model. */
export const READ_CHARS = 8_000;
export const READ_BYTES = 24_000;

/** The loop tool and what it read. */
export interface ResearchReader {
  tool: ReturnType<typeof readerTool>;
  /** URLs read successfully, in order, each once. */
  read(): string[];
}

function readerTool(run: (url: string, startIndex: number) => Promise<string>) {
  return loopTool({
    name: 'fetch',
    description:
      'Reads the start page or one of its links on the same site, as Markdown in pages of 8000 characters. ' +
      'Other URLs are refused, and only a few pages may be read.',
    input: z.object({
      url: z.string().describe('The start page or one of the links listed with it'),
      start_index: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Character to start at, to read on; default 0'),
    }),
    run: ({ url, start_index }) => run(url, start_index ?? 0),
  });
}

/**
 * The reader for one research call, bound to its start page and that page's same-site links.
 *
 * @example
 * ```ts
 * const reader = researchReader(call, start, links, 4);
 * await runToolLoop(call.flow, { messages, maxTokens: 1500, tools: [reader.tool] });
 * reader.read(); // ['https://example.com/a', …]
 * ```
 */
export function researchReader(
  call: FetchCall,
  start: LoadedPage,
  links: readonly PageLink[],
  maxPages: number,
): ResearchReader {
  const origin = new URL(start.page.finalUrl).origin;
  const allowed = new Set([start.url, start.page.finalUrl, ...links.map((link) => link.url)]);
  const read = new Set<string>();
  let used = 0;

  const run = async (input: string, startIndex: number): Promise<string> => {
    const target = checkUrl(input, call.context.policy);
    const url = cacheKey(target.href);
    if (target.origin !== origin)
      throw new UserError(
        `${shownUrl(url)} is not on ${shownUrl(origin)}; this research reads only that site.`,
      );
    if (!allowed.has(url))
      throw new UserError(
        `${shownUrl(url)} is not a link of the start page; read one of the links listed with it.`,
      );
    if (used >= maxPages)
      throw new UserError(
        `This research may read ${maxPages} linked page(s) and has read them all; answer with what you have.`,
      );
    used++;
    const loaded = await loadPage(call, url, { onProgress: false, sameOrigin: true });
    // The fetch tool may have cached this URL earlier, when it was free to follow the redirect.
    const landed = new URL(loaded.page.finalUrl);
    if (landed.origin !== origin)
      throw new UserError(
        `${shownUrl(url)} redirects to ${shownUrl(landed.origin)}, another site, so it was not read.`,
      );
    const content = await pageText(call.context.pages, loaded.page, { signal: call.signal });
    const page = fitPage(content.text, startIndex, READ_CHARS, READ_BYTES);
    read.add(loaded.url);
    call.progress.report(1 + used, { total: 1 + maxPages, message: `Read ${shownUrl(loaded.url)}` });
    if (page.exhausted) return pageBody(page);
    const more =
      page.nextStartIndex === undefined
        ? ''
        : `\n\nThe page goes on: call fetch with start_index ${page.nextStartIndex} to read more.`;
    return `Contents of ${shownUrl(loaded.url)}:\n${fenceUntrusted(page.text, loaded.url)}${more}`;
  };

  return { tool: readerTool(run), read: () => [...read] };
}
