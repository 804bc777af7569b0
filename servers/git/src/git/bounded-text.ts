/**
 * Git output cut to a byte budget for a prompt or a sampling request, with a line saying how much
 * was left out: a model given half a diff must know it is half.
 */
import { truncateText } from '@mcpkit/core/limits';

/** `text` within `maxBytes`, ending with a note when it was cut. */
export function boundedText(text: string, maxBytes: number, what: string): string {
  const cut = truncateText(text, maxBytes, { continuation: '' });
  return cut.truncated ? `${cut.text}\n[${what} cut at ${maxBytes} bytes]` : text;
}
