const encoder = new TextEncoder();

/** Size of `text` once encoded as UTF-8, which is how it travels. */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, ending on a whole code
 * point: a multi-byte character or a surrogate pair (emoji) is kept whole or left out whole.
 *
 * @example
 * ```ts
 * utf8Prefix('a😀b', 4); // { text: 'a', bytes: 1 } (the emoji needs 4 bytes)
 * ```
 */
export function utf8Prefix(text: string, maxBytes: number): { text: string; bytes: number } {
  const total = utf8ByteLength(text);
  if (total <= maxBytes) return { text, bytes: total };
  if (maxBytes <= 0) return { text: '', bytes: 0 };
  // encodeInto stops before the first code point that does not fit whole, and reports how many
  // UTF-16 units it consumed, so the cut can never land inside a character.
  const { read, written } = encoder.encodeInto(text, new Uint8Array(Math.floor(maxBytes)));
  return { text: text.slice(0, read), bytes: written };
}
