/**
 * A least-recently-used map bounded by entry count and by total weight (bytes, usually). The
 * fetch server keeps pages and robots.txt rules in it: without both bounds, a model that fetches
 * many pages, or a few huge ones, would grow the server's memory without limit.
 */

/** Bounds of an {@link LruCache}. */
export interface LruOptions<V> {
  maxEntries: number;
  /** Total weight allowed; an entry heavier than this alone is never stored. */
  maxWeight: number;
  /** Weight of one value (bytes it holds); 1 for everything by default. */
  weigh?: (value: V) => number;
}

/**
 * The cache. `get` refreshes an entry's recency; `set` evicts the least recently used entries
 * until both bounds hold again.
 *
 * @example
 * ```ts
 * const cache = new LruCache<string, string>({ maxEntries: 100, maxWeight: 1e6, weigh: (v) => v.length });
 * cache.set('a', 'text');
 * cache.get('a'); // 'text'
 * ```
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  readonly #options: LruOptions<V>;
  #weight = 0;

  constructor(options: LruOptions<V>) {
    this.#options = options;
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Total weight held. */
  get weight(): number {
    return this.#weight;
  }

  /** The value for `key`, now the most recently used, or `undefined`. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value for `key` without touching its recency. */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Stores `value` (replacing any old one); returns false when it is too heavy to keep. */
  set(key: K, value: V): boolean {
    this.delete(key);
    const weight = this.#options.weigh?.(value) ?? 1;
    if (weight > this.#options.maxWeight || this.#options.maxEntries < 1) return false;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#weight <= this.#options.maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
    return true;
  }

  /** Every value, most recently used first, without touching recency. */
  values(): V[] {
    return [...this.#entries.values()].map((entry) => entry.value).reverse();
  }

  /** Removes `key`; true when it was there. */
  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}
