/**
 * What the fetch tool shows for a response body, with the official server's rules: HTML (as
 * html-type.ts decides) becomes Markdown unless `raw` is asked; anything else is returned as it
 * is, after the official sentence saying it could not be simplified. Unlike the official server,
 * a binary body (an image, a PDF, an archive) is refused instead of being decoded into noise.
 */
import { UserError } from '@mcpkit/core/errors';
import { mediaType, shownMediaType } from '../content/shown.js';
import { decodePage } from './html-type.js';
import { DEFAULT_HTML_LIMITS, type HtmlLimits } from './normalize-html.js';
import { htmlToMarkdown } from './to-markdown.js';

/** The text of one response and how it was made. */
export interface PageContent {
  /** Markdown for HTML, otherwise the decoded body. */
  text: string;
  /** The official note put before raw content; '' for Markdown. */
  prefix: string;
  kind: 'markdown' | 'raw';
  title?: string;
  /** False when Readability found no article and the whole body was converted. */
  simplified?: boolean;
  /** A meta refresh target, reported and never followed. */
  metaRefresh?: string;
  notes: string[];
}

const TEXT_TYPES =
  /^(text\/|application\/(x-)?([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|x-yaml|toml|csv|sql|graphql|ld\+json|rss\+xml|atom\+xml|xhtml\+xml)\b|image\/svg\+xml)/i;
const BINARY_TYPES =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-|vnd\.|wasm|msword)/i;

/** True when the bytes look binary: a NUL in the first 4 KiB. */
function looksBinary(body: Uint8Array): boolean {
  return body.subarray(0, 4096).includes(0);
}

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
  const type = mediaType(contentType);
  const textual = TEXT_TYPES.test(type);
  if (!textual && (BINARY_TYPES.test(type) || looksBinary(body)))
    throw new UserError(
      `${url.href} is ${shownMediaType(contentType) ?? 'binary data'}, not text; use fetch_image for images, or fetch a text or HTML page.`,
    );
  const { text, html } = decodePage(body, contentType);
  if (html && !options.raw) {
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
  // Only the media type: the header's parameters are whatever the server chose to write.
  const shown = shownMediaType(contentType) ?? 'unknown';
  const prefix = `Content type ${shown} cannot be simplified to markdown, but here is the raw content:\n`;
  return { text, prefix, kind: 'raw', notes: [] };
}
