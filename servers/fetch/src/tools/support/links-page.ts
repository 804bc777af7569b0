/**
 * One page of a link list for fetch_links: core's signed cursor paging, with the page also cut to
 * a byte budget. Each link is in a result twice (a line of text and an item of structuredContent),
 * and core cuts only the text to the output limit, so the tool must keep both under it: a link's
 * URL may be 8 KB long, and 200 of them would be over 3 MB. A page holds one link at least, so
 * paging always moves on.
 */
import { utf8ByteLength } from '@mcpkit/core/limits';
import { type Page, type PaginateArrayOptions, paginateArray } from '@mcpkit/core/pagination';
import type { PageLink } from '../../html/links.js';

/** How a link is written in the result's text. */
export function linkLine(link: PageLink): string {
  return link.text ? `- ${link.url} — ${link.text}` : `- ${link.url}`;
}

/** Bytes a link adds to a result: its line, its JSON item, and their separators. */
function linkBytes(link: PageLink): number {
  return utf8ByteLength(linkLine(link)) + utf8ByteLength(JSON.stringify(link)) + 2;
}

/**
 * The page of `links` the cursor asks for, at most `pageSize` links and `budgetBytes` bytes.
 *
 * @example
 * ```ts
 * const { page, nextCursor } = linksPage(links, { codec, list, cursor, pageSize: 200, keyOf, budgetBytes: 500_000 });
 * ```
 */
export function linksPage(
  links: readonly PageLink[],
  options: PaginateArrayOptions<PageLink> & { budgetBytes: number },
): Page<PageLink> {
  const { budgetBytes, ...paging } = options;
  const full = paginateArray(links, paging);
  let used = 0;
  let fit = 0;
  for (const link of full.page) {
    used += linkBytes(link);
    if (used > budgetBytes && fit > 0) break;
    fit++;
  }
  // Cut again rather than slicing, so the cursor continues right after the last link sent.
  return fit === full.page.length ? full : paginateArray(links, { ...paging, pageSize: fit });
}
