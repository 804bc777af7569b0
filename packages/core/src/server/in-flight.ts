/**
 * @internal The calls an app is running. Closing the app aborts them (their `call.signal`) and
 * waits a little for them to wind down before the context they use is closed, and no new
 * instance is made once closing has begun.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export class InFlight {
  readonly #running = new Set<Promise<unknown>>();
  readonly #closing = new AbortController();

  /** Aborted when the app starts closing; every call's signal follows it. */
  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  get closing(): boolean {
    return this.#closing.signal.aborted;
  }

  /** Counts `work` as running until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const done = () => this.#running.delete(work);
    work.then(done, done);
    return work;
  }

  /** Aborts every call, then waits until they have all settled or `graceMs` has passed. */
  async drain(graceMs: number): Promise<void> {
    this.#closing.abort(new Error('The server is shutting down.'));
    if (this.#running.size === 0) return;
    const timer = new AbortController();
    await Promise.race([
      Promise.allSettled([...this.#running]),
      sleep(graceMs, undefined, { signal: timer.signal, ref: false }).catch(() => undefined),
    ]);
    timer.abort();
  }
}
