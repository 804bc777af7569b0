/**
 * The memo that append_insight adds to: short notes the model writes about the data, kept in
 * memory for the session and shown as a resource. The notes may repeat text read from the
 * database, so they count as untrusted when shown (fence them like rows), and both their number
 * and length are capped.
 */

import { UserError } from '@mcpkit/core/errors';

/** Longest insight, in characters. */
export const MAX_INSIGHT_CHARS = 2_000;

/** Insights kept; the oldest go first. */
export const MAX_INSIGHTS = 200;

/**
 * A bounded list of insights.
 *
 * @example
 * ```ts
 * const memo = new InsightMemo();
 * memo.append('Sales peak in December.');
 * memo.render(); // '1. Sales peak in December.'
 * ```
 */
export class InsightMemo {
  readonly #items: string[] = [];

  /** Adds one insight (trimmed) and returns how many are kept. */
  append(text: string): number {
    const insight = text.trim();
    if (insight === '') throw new UserError('An insight needs some text.');
    if (insight.length > MAX_INSIGHT_CHARS) {
      throw new UserError(`An insight holds at most ${MAX_INSIGHT_CHARS} characters; shorten it.`);
    }
    this.#items.push(insight);
    if (this.#items.length > MAX_INSIGHTS) this.#items.shift();
    return this.#items.length;
  }

  /** The insights, oldest first. */
  list(): readonly string[] {
    return this.#items;
  }

  /** A numbered list, one insight per entry; empty when there is none. */
  render(): string {
    return this.#items.map((item, i) => `${i + 1}. ${item}`).join('\n');
  }
}
