/**
 * Per-key trailing-edge coalescing. Every call within `waitMs` of the previous one folds into a
 * single `fire(key)`. A key that keeps changing still fires once `maxWaitMs` has passed since its
 * first pending call, so a file rewritten every few milliseconds cannot starve its subscribers.
 *
 * @example
 * ```ts
 * const updates = new KeyedDebouncer<string>({ waitMs: 100, fire: (uri) => log.info(`${uri} changed`) });
 * updates.schedule('file:///a.md');
 * updates.schedule('file:///a.md'); // one log line, 100 ms after this call
 * ```
 */
export class KeyedDebouncer<K> {
  readonly #waitMs: number;
  readonly #maxWaitMs: number;
  readonly #fire: (key: K) => void;
  readonly #pending = new Map<K, { timer: NodeJS.Timeout; firstAt: number }>();

  constructor(options: { waitMs: number; maxWaitMs?: number; fire: (key: K) => void }) {
    this.#waitMs = options.waitMs;
    this.#maxWaitMs = Math.max(options.maxWaitMs ?? options.waitMs * 10, options.waitMs);
    this.#fire = options.fire;
  }

  /** Number of keys waiting to fire. */
  get size(): number {
    return this.#pending.size;
  }

  /** (Re)arms the timer for `key`. */
  schedule(key: K): void {
    const now = Date.now();
    const current = this.#pending.get(key);
    if (current) clearTimeout(current.timer);
    const firstAt = current?.firstAt ?? now;
    const delay = Math.max(0, Math.min(this.#waitMs, firstAt + this.#maxWaitMs - now));
    const timer = setTimeout(() => {
      this.#pending.delete(key);
      this.#fire(key);
    }, delay);
    // A pending notification is not a reason to keep a finished process alive.
    timer.unref();
    this.#pending.set(key, { timer, firstAt });
  }

  /** Drops every pending key without firing. */
  clear(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}
