/**
 * What the fetch tool shows for a response body, with the official server's rules: HTML (as
 * html-type.ts decides) becomes Markdown unless `raw` is asked; anything else is returned as it
 * is, after the official sentence saying it could not be simplified (body-text.ts, which also
 * refuses binary bodies).
 *
 * This module loads the DOM libraries (to-markdown.ts), so only the conversion worker and tests
 * import it; the server's thread answers a raw fetch with body-text.ts alone (convert-page.ts).
 */
import { type PageContent, rawContent, readBody } from './body-text.js';
import { DEFAULT_HTML_LIMITS, type HtmlLimits } from './normalize-html.js';
import { htmlToMarkdown } from './to-markdown.js';

/**
 * Turns a fetched body into the text the fetch tool returns.
 *
 * @example
 * ```ts
 * const page = pageContent(result.body, result.contentType, new URL(result.url), { raw: false });
 * ```
 */
export function pageContent(
  body: Uint8Array,
  contentType: string,
  url: URL,
  options: { raw?: boolean; limits?: HtmlLimits } = {},
): PageContent {
  const { text, html } = readBody(body, contentType, url);
  if (!html || options.raw) return rawContent(text, contentType);
  const page = htmlToMarkdown(text, url, options.limits ?? DEFAULT_HTML_LIMITS);
  return {
    text: page.markdown,
    prefix: '',
    kind: 'markdown',
    simplified: page.simplified,
    notes: page.notes,
    ...(page.title ? { title: page.title } : {}),
    ...(page.metaRefresh ? { metaRefresh: page.metaRefresh } : {}),
  };
}
