/**
 * Per-session bookkeeping of client-provided roots, free of MCP. The transport layer asks the
 * client for its roots (after `initialized`, on `roots/list_changed`, or via an input-required
 * result) and reports the outcome here; tool handlers ask {@link ClientRootsState.effective} for the
 * set to resolve against.
 */
import type { RootSet } from './root-set.js';

/** Options for {@link ClientRootsState}. */
export interface ClientRootsOptions {
  /** How long `effective()` waits for the first answer before using the ceiling. Default 10 000 ms. */
  timeoutMs?: number;
}

/** Called with the new effective set whenever it changes. */
export type RootsChangeListener = (roots: RootSet) => void;

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The effective roots of one session: the ceiling narrowed by the client's latest roots answer.
 * Every refresh takes a ticket; an answer is applied only if no newer ticket's answer is already
 * in, so a slow stale answer never overwrites a newer one.
 *
 * @example
 * ```ts
 * const state = new ClientRootsState(await RootSet.create(['/srv/notes']));
 * const ticket = state.beginRefresh(); // then ask the client for roots/list
 * await state.applyAnswer(ticket, ['/srv/notes/work']); // its answer, as paths (failRefresh if it failed)
 * const roots = await state.effective(call.signal); // /srv/notes/work; waits for the first answer
 * ```
 */
export class ClientRootsState {
  readonly #ceiling: RootSet;
  readonly #timeoutMs: number;
  readonly #listeners = new Set<RootsChangeListener>();
  readonly #waiters = new Set<(roots: RootSet) => void>();
  #issued = 0;
  #applied = 0;
  /** Answers in, being narrowed (realpaths of the client's roots). */
  #narrowing = 0;
  #current: RootSet | undefined;
  #lastError: unknown;

  constructor(ceiling: RootSet, options: ClientRootsOptions = {}) {
    this.#ceiling = ceiling;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** The configured ceiling that client roots narrow. */
  get ceiling(): RootSet {
    return this.#ceiling;
  }

  /** True once an effective set is known (an answer, `useCeiling`, a failure or a timeout). */
  get ready(): boolean {
    return this.#current !== undefined;
  }

  /** The error of the last failed refresh, for diagnostics. */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** Starts a refresh and returns its ticket; tickets increase monotonically. */
  beginRefresh(): number {
    this.#issued += 1;
    return this.#issued;
  }

  /**
   * Applies the client's answer for `ticket` (paths already converted from `file://` URIs), unless
   * an answer for a newer ticket was applied meanwhile. An empty list revokes access. With a stall
   * guard on the ceiling, a client root on a stalled mount is left out after the guard's deadline
   * (see {@link RootSet.narrow}) rather than holding this, and every call waiting on it, for ever.
   */
  async applyAnswer(ticket: number, paths: readonly string[]): Promise<void> {
    this.#checkTicket(ticket);
    this.#narrowing += 1;
    let narrowed: RootSet;
    try {
      narrowed = await this.#ceiling.narrow(paths);
    } catch (error) {
      // Treated as a failed refresh, so no call is left waiting for an answer that never comes.
      this.failRefresh(ticket, error);
      throw error;
    } finally {
      this.#narrowing -= 1;
    }
    // Checked after the await: a newer answer may have landed while this one was being resolved.
    if (ticket <= this.#applied) return;
    this.#applied = ticket;
    this.#settle(narrowed);
  }

  /**
   * Records a failed refresh. If no answer has been applied yet, the ceiling becomes effective so
   * tool calls do not hang on a client that cannot answer; the ceiling is what the operator allowed
   * on the command line. After an answer, the last good (narrower) set stays: a failure never widens.
   * A later answer still applies, because a failure is not an answer.
   */
  failRefresh(ticket: number, error: unknown): void {
    this.#checkTicket(ticket);
    this.#lastError = error;
    if (this.#current === undefined) this.#settle(this.#ceiling);
  }

  /**
   * The client has no roots capability: the ceiling is effective at once. Answers still in flight
   * are ignored from now on.
   */
  useCeiling(): void {
    this.#applied = this.#issued;
    this.#settle(this.#ceiling);
  }

  /**
   * The effective set, waiting for the first answer if none is in yet. Rejects with the signal's
   * reason when `signal` aborts. After the timeout the ceiling becomes effective (silently: the
   * caller sees only the result), and a later answer still narrows it. But while an answer that has
   * come in is being narrowed under the ceiling's stall guard, which bounds it, the wait goes on:
   * the ceiling would widen what the client chose until that answer lands.
   */
  effective(signal?: AbortSignal): Promise<RootSet> {
    if (this.#current !== undefined) return Promise.resolve(this.#current);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<RootSet>((resolve, reject) => {
      const done = (roots: RootSet): void => {
        cleanup();
        resolve(roots);
      };
      const onAbort = (): void => {
        cleanup();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        const bounded = this.#narrowing > 0 && this.#ceiling.stallGuard !== undefined;
        if (this.#current === undefined && !bounded) this.#settle(this.#ceiling);
      }, this.#timeoutMs);
      // A pending wait must not keep the process alive on its own.
      timer.unref?.();
      const cleanup = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener('abort', onAbort);
      };
      this.#waiters.add(done);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Subscribes to changes of the effective set (e.g. to send `resources/list_changed`). */
  onChange(listener: RootsChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #checkTicket(ticket: number): void {
    if (!Number.isInteger(ticket) || ticket < 1 || ticket > this.#issued) {
      throw new RangeError(`Unknown roots refresh ticket ${ticket}.`);
    }
  }

  #settle(roots: RootSet): void {
    const previous = this.#current;
    this.#current = roots;
    for (const waiter of [...this.#waiters]) waiter(roots);
    if (previous?.sameAs(roots)) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(roots);
      } catch {
        // A failing listener must not stop the others or the caller that applied the answer.
      }
    }
  }
}
