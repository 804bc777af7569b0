/**
 * One AbortController per fetch call that every stop condition aborts with its own reason: the
 * caller's cancellation, the total deadline (which also covers reading the body, so a server
 * that sends one byte a second is cut off), and the per-hop first-byte timer. Whatever undici
 * then throws, the call reports the reason that actually fired.
 */
import { UserError } from '@mcpkit/core/errors';
import { CancelledError } from '@mcpkit/core/progress';

/** A deadline as the operator set it: whole seconds as seconds (`--total-timeout`), else milliseconds. */
function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The stop conditions of one call; {@link CallDeadline.dispose} it when the call is over. */
export class CallDeadline {
  readonly #controller = new AbortController();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #caller: AbortSignal | undefined;
  readonly #onCancel = () => this.#controller.abort(new CancelledError());

  /** Starts the total deadline of `totalMs` for fetching `url`; `caller` cancels the call. */
  constructor(caller: AbortSignal | undefined, totalMs: number, url: URL) {
    this.#caller = caller;
    if (caller?.aborted) this.#onCancel();
    else caller?.addEventListener('abort', this.#onCancel, { once: true });
    this.arm(
      totalMs,
      () =>
        new UserError(
          `Fetching ${url.href} took longer than ${duration(totalMs)}, so it was stopped; try again later.`,
        ),
    );
  }

  /** The signal to hand to undici. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the call was stopped, once it was. */
  get reason(): UserError | undefined {
    const reason: unknown = this.#controller.signal.reason;
    return this.#controller.signal.aborted && reason instanceof UserError ? reason : undefined;
  }

  /** Aborts the call with `reason()` after `ms` unless the returned function is called first. */
  arm(ms: number, reason: () => UserError): () => void {
    const timer = setTimeout(() => this.#controller.abort(reason()), ms);
    this.#timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.#timers.delete(timer);
    };
  }

  /** Clears every timer and stops listening to the caller's signal. */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#caller?.removeEventListener('abort', this.#onCancel);
  }
}
