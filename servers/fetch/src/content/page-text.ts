/**
 * The text of a cached page, the same for every way a page is reached (the tools, the cache
 * resources, the prompts): the Markdown the cache already holds, or a conversion made now through
 * `convertPage` (in a worker, under its deadline). Markdown made from a cached body is stored with
 * it, so page 2 of a long article, a resource read and a prompt reuse the one conversion.
 */
import type { CachedPage, PageCache } from '../cache/page-cache.js';
import type { PageContent } from '../html/body-text.js';
import { convertPage } from '../html/convert-page.js';
import { shownMediaType } from './shown.js';

/** A page's text, how it was made, and the media type to label it with. */
export interface PageText extends PageContent {
  /** `text/markdown`, or the page's own media type for content that is not converted. */
  mimeType: string;
}

/** How the text is made. */
export interface PageTextOptions {
  /** HTML as it is instead of Markdown (the fetch tool's `raw`). */
  raw?: boolean;
  /** Stops the conversion (the call was cancelled). */
  signal?: AbortSignal;
}

/**
 * The text of `page`: Markdown for HTML (unless `raw`), the decoded body otherwise. Throws the
 * conversion's `UserError` for a body that is not text (an image or a PDF in the cache).
 *
 * @example
 * ```ts
 * const content = await pageText(call.context.pages, loaded.page, { raw: false, signal: call.signal });
 * ```
 */
export async function pageText(
  pages: PageCache,
  page: CachedPage,
  options: PageTextOptions = {},
): Promise<PageText> {
  if (!options.raw && page.markdown !== undefined) {
    return {
      text: page.markdown,
      prefix: '',
      kind: 'markdown',
      notes: [],
      mimeType: 'text/markdown',
      ...(page.title ? { title: page.title } : {}),
    };
  }
  const content = await convertPage(page.body, page.contentType, new URL(page.finalUrl), {
    raw: options.raw === true,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (content.kind === 'markdown') {
    // Kept only on the entry this body came from: another call may have replaced it meanwhile.
    // Raw text is cheap to decode again and is not Markdown, so it is never stored.
    if (pages.peek(page.url)?.body === page.body) pages.setMarkdown(page.url, content.text, content.title);
    return { ...content, mimeType: 'text/markdown' };
  }
  return { ...content, mimeType: shownMediaType(page.contentType) ?? 'text/plain' };
}
