/**
 * Completion of URLs already fetched: the cached pages, most recently used first (core ranks
 * them against what was typed and caps the list). Used for the `url` variable of the cache
 * template and the `url` argument of the prompts.
 */
import type { FetchLookup } from '../context.js';

/** The cached URLs, most recently used first. */
export function recentUrls(_typed: string, lookup: FetchLookup): string[] {
  return lookup.context.pages.entries().map((page) => page.url);
}
