/**
 * The one rule for which fetched bodies are HTML, used by everything that reads a page: the fetch
 * tool (HTML becomes Markdown), fetch_links and research (only HTML has links). It is the official
 * server's rule — the type is text/html, there is no type, or "<html" is in the first 100
 * characters — with XHTML (`application/xhtml+xml`) counted as HTML too: it is the same markup
 * written as XML, and its pages rarely say "<html" that early (an XML declaration and a long
 * DOCTYPE come first), so the official rule would return such a page as raw text.
 */
import { mediaType } from '../content/shown.js';
import { decodeText } from './charset.js';

/** Media types that are HTML; '' is a response without a Content-Type. */
const HTML_TYPES: ReadonlySet<string> = new Set(['', 'text/html', 'application/xhtml+xml']);

/** A body decoded to text, and whether it is HTML. */
export interface DecodedPage {
  text: string;
  html: boolean;
}

/**
 * Decodes `body` (charset.ts: an XML type also reads its XML declaration's encoding, an HTML type
 * its `<meta charset>`) and says whether it is HTML.
 *
 * @example
 * ```ts
 * decodePage(bytes, 'application/xhtml+xml; charset=utf-8'); // { text: '<?xml …', html: true }
 * decodePage(bytes, 'text/plain');                           // html: true only if it starts like HTML
 * ```
 */
export function decodePage(body: Uint8Array, contentType: string): DecodedPage {
  const htmlType = HTML_TYPES.has(mediaType(contentType));
  const text = decodeText(body, contentType, htmlType);
  return { text, html: htmlType || text.slice(0, 100).includes('<html') };
}
