import { type Continuation, fitWithMarker, resolveHint, type ShownPart, truncationMarker } from './marker.js';
import { utf8ByteLength, utf8Prefix } from './utf8.js';

export interface TruncateTextOptions {
  /**
   * How to get the rest, e.g. `'Call again with offset=1234 to read on.'`, or a function of what was
   * shown: `({ chars }) => \`Call again with start_index=${start + chars}.\``.
   */
  continuation: Continuation;
}

export interface TruncatedText {
  /** The output: the original, or its head plus a notice line. */
  text: string;
  truncated: boolean;
  /** UTF-8 size of the original. */
  bytes: number;
  /** UTF-8 bytes of the original that were kept (the notice not included). */
  shownBytes: number;
  /** UTF-16 code units of the original that were kept. */
  shownChars: number;
}

/**
 * Bounds text to `limitBytes` of UTF-8, notice included. When it cuts, it cuts on a code point
 * boundary and appends a line saying so and how to get the rest, so the model never mistakes a
 * head for the whole.
 *
 * @example
 * ```ts
 * const body = 'x'.repeat(5_242_880);
 * truncateText(body, 1_048_576, { continuation: 'Call again with offset=1048576 to read on.' }).text;
 * // '…\n[truncated: showed 1048000 of 5242880 bytes. Call again with offset=1048576 to read on.]'
 * ```
 */
export function truncateText(text: string, limitBytes: number, options: TruncateTextOptions): TruncatedText {
  const bytes = utf8ByteLength(text);
  if (bytes <= limitBytes) {
    return { text, truncated: false, bytes, shownBytes: bytes, shownChars: text.length };
  }
  const { shown, marker } = fitWithMarker(
    limitBytes,
    (budget): ShownPart & { text: string } => {
      const head = utf8Prefix(text, budget);
      return { text: head.text, bytes: head.bytes, chars: head.text.length };
    },
    (part) =>
      truncationMarker(
        `showed ${part.bytes} of ${bytes} bytes`,
        resolveHint(options.continuation, { bytes: part.bytes, chars: part.chars }),
      ),
  );
  return {
    text: shown.text + marker,
    truncated: true,
    bytes,
    shownBytes: shown.bytes,
    shownChars: shown.chars,
  };
}
