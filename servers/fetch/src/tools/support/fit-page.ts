/**
 * One `start_index`/`max_length` page that also fits the server's output budget. max_length
 * counts characters, and a character can take four bytes, so a page the caller may ask for can
 * be larger than a tool result may carry; it is then made shorter, and the continuation hint
 * points at the character where it stopped, so nothing is skipped.
 */
import { utf8ByteLength, utf8Prefix } from '@mcpkit/core/limits';
import { paginate, type TextPage } from '../../paging/paginate.js';

/**
 * The page of `text` from `startIndex`, at most `maxLength` characters and `maxBytes` bytes.
 *
 * @example
 * ```ts
 * fitPage('é'.repeat(10), 0, 10, 8); // 4 characters (8 bytes), nextStartIndex 4
 * ```
 */
export function fitPage(text: string, startIndex: number, maxLength: number, maxBytes: number): TextPage {
  const page = paginate(text, startIndex, maxLength);
  if (page.exhausted || utf8ByteLength(page.text) <= maxBytes) return page;
  const fits = [...utf8Prefix(page.text, maxBytes).text].length;
  return paginate(text, startIndex, Math.max(1, fits));
}
