/**
 * Bytes to text with the encoding a browser would pick: a byte-order mark first, then the
 * `charset` of the Content-Type, then what the document says of itself: for XML types (XHTML,
 * RSS, SVG, `text/xml`…) the `encoding` of an XML declaration at its very start, for HTML types a
 * `<meta charset>`, both in the first 1024 bytes; then UTF-8. An unknown label falls back to the
 * next rule rather than failing; bad bytes become U+FFFD.
 */
import { mediaType } from '../content/shown.js';
import { windows1252 } from './windows-1252.js';

/** Bytes searched for what a document says of its own encoding, as browsers do. */
const SNIFF_BYTES = 1024;

/** `text/xml`, `application/xml` and every `…+xml` type (RFC 7303). */
const XML_TYPE = /^[\w.-]+\/(?:[\w.+-]*\+)?xml$/;

/** XML whitespace, the `S` of the XML grammar. */
const S = '[ \\t\\r\\n]';

/**
 * An XML declaration that names an encoding, as the XML grammar writes it (XMLDecl, with its
 * VersionInfo first and EncodingDecl second), at the very first byte: a declaration anywhere
 * else is not one, and a document with anything before it has none (XML 1.0 §2.8, §4.3.3).
 */
const XML_DECLARATION = new RegExp(
  `^<\\?xml${S}+version${S}*=${S}*(?:"1\\.\\d+"|'1\\.\\d+')${S}+encoding${S}*=${S}*` +
    `(?:"([A-Za-z][\\w.-]*)"|'([A-Za-z][\\w.-]*)')` +
    `(?:${S}+standalone${S}*=${S}*(?:"(?:yes|no)"|'(?:yes|no)'))?${S}*\\?>`,
);

function bomEncoding(body: Uint8Array): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The `charset` parameter of a Content-Type, lower-case, or `undefined`. */
export function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

/** The first bytes as Latin-1: one character per byte, so ASCII markup reads the same in any ASCII-based encoding. */
function head(body: Uint8Array): string {
  return new TextDecoder('latin1').decode(body.subarray(0, SNIFF_BYTES));
}

function metaCharset(body: Uint8Array): string | undefined {
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([-\w.:]+)/i.exec(head(body));
  return match?.[1]?.toLowerCase();
}

function xmlEncoding(body: Uint8Array): string | undefined {
  const match = XML_DECLARATION.exec(head(body));
  return (match?.[1] ?? match?.[2])?.toLowerCase();
}

function decoder(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/**
 * The decoder an XML declaration names. The declaration was read as ASCII, so the document is
 * not UTF-16 whatever it says (UTF-16 needs a byte-order mark, which would have won already).
 */
function declaredDecoder(body: Uint8Array): TextDecoder | undefined {
  const chosen = decoder(xmlEncoding(body));
  return chosen?.encoding.startsWith('utf-16') ? undefined : chosen;
}

/**
 * Decodes a response body to text.
 *
 * @example
 * ```ts
 * decodeText(bytes, 'text/html; charset=windows-1252', true);
 * decodeText(bytes, 'application/rss+xml', false); // <?xml version="1.0" encoding="iso-8859-2"?> decides
 * ```
 */
export function decodeText(body: Uint8Array, contentType: string, html: boolean): string {
  const xml = XML_TYPE.test(mediaType(contentType));
  const chosen =
    decoder(bomEncoding(body)) ??
    decoder(charsetOf(contentType)) ??
    (xml ? declaredDecoder(body) : undefined) ??
    (html ? decoder(metaCharset(body)) : undefined) ??
    new TextDecoder('utf-8');
  const text = chosen.decode(body);
  return chosen.encoding === 'windows-1252' ? windows1252(text) : text;
}
