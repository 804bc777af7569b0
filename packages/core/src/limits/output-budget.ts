import type { Continuation } from './marker.js';
import { truncateText } from './truncate-text.js';
import { utf8ByteLength } from './utf8.js';

/**
 * One output allowance shared by all the parts of a single result (several content blocks, a
 * listing followed by file bodies), so the result as a whole stays under the limit.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const budget = new OutputBudget(call.app.outputLimitBytes);
 * const parts: string[] = [];
 * for (const file of ['a.md', 'b.md']) {
 *   const part = budget.take(await readFile(file, 'utf8'), { continuation: `Read ${file} on its own.` });
 *   parts.push(part.text);
 *   if (part.truncated) break;
 * }
 * ```
 */
export class OutputBudget {
  #used = 0;

  constructor(readonly limitBytes: number) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes < 0) {
      throw new RangeError(`Output budget must be a non-negative integer of bytes, got ${limitBytes}.`);
    }
  }

  /** Bytes still available. */
  get remaining(): number {
    return Math.max(0, this.limitBytes - this.#used);
  }

  /** Bytes handed out so far, truncation notices included. */
  get used(): number {
    return this.#used;
  }

  /**
   * Takes as much of `text` as the remaining budget allows. When that is not all of it, the
   * returned text ends with a truncation notice (carrying `continuation`, if given) and
   * `truncated` is true: a part is never cut silently.
   */
  take(text: string, options: { continuation?: Continuation } = {}): { text: string; truncated: boolean } {
    const result = truncateText(text, this.remaining, { continuation: options.continuation ?? '' });
    this.#used += result.truncated ? utf8ByteLength(result.text) : result.bytes;
    return { text: result.text, truncated: result.truncated };
  }
}
