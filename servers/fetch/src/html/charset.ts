/**
 * Bytes to text with the encoding a browser would pick: a byte-order mark first, then the
 * `charset` of the Content-Type, then (for HTML) a `<meta charset>` in the first 1024 bytes, then
 * UTF-8. An unknown label falls back to UTF-8 rather than failing; bad bytes become U+FFFD.
 */

/** Bytes searched for a `<meta charset>`, as browsers do. */
const SNIFF_BYTES = 1024;

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

function metaCharset(body: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(body.subarray(0, SNIFF_BYTES));
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([-\w.:]+)/i.exec(head);
  return match?.[1]?.toLowerCase();
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
 * Decodes a response body to text.
 *
 * @example
 * ```ts
 * decodeText(bytes, 'text/html; charset=windows-1252', true);
 * ```
 */
export function decodeText(body: Uint8Array, contentType: string, html: boolean): string {
  const chosen =
    decoder(bomEncoding(body)) ??
    decoder(charsetOf(contentType)) ??
    (html ? decoder(metaCharset(body)) : undefined) ??
    new TextDecoder('utf-8');
  return chosen.decode(body);
}
