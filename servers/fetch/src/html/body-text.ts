/**
 * The part of reading a fetched body that needs no DOM: refusing a binary body, decoding text,
 * and the official answer for content returned as it is. A raw fetch is answered with this on the
 * server's thread; everything else goes to the conversion worker (page-content.ts).
 *
 * Kept apart from the Markdown conversion on purpose: nothing the server's thread imports may
 * reach to-markdown.ts or load-document.ts, or the bundled bin would carry (and compile at every
 * start) linkedom, Readability and Turndown, which only the worker runs.
 */
import { UserError } from '@mcpkit/core/errors';
import { mediaType, shownMediaType } from '../content/shown.js';
import { type DecodedPage, decodePage } from './html-type.js';

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
 * Decodes a fetched body to text and says whether it is HTML (html-type.ts). Unlike the official
 * server, a binary body (an image, a PDF, an archive) is refused with a {@link UserError} instead
 * of being decoded into noise.
 *
 * @example
 * ```ts
 * const { text, html } = readBody(result.body, result.contentType, new URL(result.url));
 * ```
 */
export function readBody(body: Uint8Array, contentType: string, url: URL): DecodedPage {
  const type = mediaType(contentType);
  const textual = TEXT_TYPES.test(type);
  if (!textual && (BINARY_TYPES.test(type) || looksBinary(body)))
    throw new UserError(
      `${url.href} is ${shownMediaType(contentType) ?? 'binary data'}, not text; use fetch_image for images, or fetch a text or HTML page.`,
    );
  return decodePage(body, contentType);
}

/**
 * Decoded text returned as it is, after the official sentence saying it could not be simplified.
 *
 * @example
 * ```ts
 * rawContent('a,b\n1,2\n', 'text/csv; charset=utf-8').prefix;
 * // 'Content type text/csv cannot be simplified to markdown, but here is the raw content:\n'
 * ```
 */
export function rawContent(text: string, contentType: string): PageContent {
  // Only the media type: the header's parameters are whatever the server chose to write.
  const shown = shownMediaType(contentType) ?? 'unknown';
  const prefix = `Content type ${shown} cannot be simplified to markdown, but here is the raw content:\n`;
  return { text, prefix, kind: 'raw', notes: [] };
}
