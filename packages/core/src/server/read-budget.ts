/** @internal The output budget applied to a resource read. */
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';
import { truncateText } from '../limits/index.js';

/**
 * Holds a resource read to the output budget: text beyond it is cut with a notice, and a blob
 * beyond it is refused, since half an image is no use. One budget for all contents of the read.
 */
export function boundRead(result: ReadResourceResult, limit: number): ReadResourceResult {
  let left = limit;
  const contents = result.contents.map((c) => {
    if ('text' in c && typeof c.text === 'string') {
      const cut = truncateText(c.text, Math.max(left, 1024), {
        continuation: 'Resources are read whole; use a tool that reads a range to get the rest.',
      });
      left = Math.max(0, left - cut.shownBytes);
      return cut.truncated ? { ...c, text: cut.text } : c;
    }
    if ('blob' in c && typeof c.blob === 'string') {
      const size = c.blob.length;
      if (size > left) {
        throw new UserError(
          `This resource is about ${Math.round((size * 3) / 4)} bytes, more than the ${limit}-byte limit of one read.`,
        );
      }
      left -= size;
    }
    return c;
  });
  return { ...result, contents };
}
