/** Why a binary payload was not returned. */
export interface BinaryTooLarge {
  tooLarge: true;
  /** Raw size in bytes. */
  size: number;
  /** Size as base64, which is what a blob costs on the wire. */
  encodedSize: number;
  limitBytes: number;
}

/** Length of the base64 text for `size` raw bytes. */
export function base64Length(size: number): number {
  return 4 * Math.ceil(size / 3);
}

/**
 * Lets a binary payload through only if its base64 form fits the limit; binary cannot be cut
 * usefully (half an image is not an image), so an oversized one becomes a description the caller
 * turns into a message or a `resource_link`.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * async function photo(call: Call): Promise<ToolOutput> {
 *   const data = limitBinary(await readFile(`${dir}/photo.png`), call.app.outputLimitBytes);
 *   if ('tooLarge' in data) return { text: `The image is ${data.size} bytes; too large to send.` };
 *   const image = { type: 'image', mimeType: 'image/png', data: data.toString('base64') } as const;
 *   return { text: 'photo.png', content: [image] };
 * }
 * ```
 */
export function limitBinary<T extends Uint8Array>(data: T, limitBytes: number): T | BinaryTooLarge {
  const encodedSize = base64Length(data.byteLength);
  if (encodedSize <= limitBytes) return data;
  return { tooLarge: true, size: data.byteLength, encodedSize, limitBytes };
}

/** Tells {@link limitBinary}'s refusal from the data. */
export function isTooLarge(value: Uint8Array | BinaryTooLarge): value is BinaryTooLarge {
  return !(value instanceof Uint8Array);
}
