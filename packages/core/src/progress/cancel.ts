import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { UserError } from '../errors/index.js';

/** Raised when a call was cancelled; the SDK drops whatever a cancelled handler returns. */
export class CancelledError extends UserError {
  constructor() {
    super('The call was cancelled.');
  }
}

/** Throws {@link CancelledError} when `signal` has fired. Long loops call it between steps. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * A checkpoint for long synchronous-looking loops (walking a tree, scanning files): it checks the
 * signal every call and yields to the event loop every `every` calls, so a cancellation
 * notification can be read at all while the loop runs.
 *
 * @example
 * ```ts
 * import { readdir, stat } from 'node:fs/promises';
 * const tick = checkpoint(call.signal);
 * let bytes = 0;
 * for (const name of await readdir(dir)) {
 *   await tick();
 *   bytes += (await stat(`${dir}/${name}`)).size;
 * }
 * ```
 */
export function checkpoint(signal: AbortSignal | undefined, every = 256): () => Promise<void> {
  let n = 0;
  return async () => {
    throwIfAborted(signal);
    if (++n % every === 0) {
      await yieldToLoop();
      throwIfAborted(signal);
    }
  };
}

/**
 * A signal that fires when `signal` does or after `ms`, whichever is first: a deadline for one
 * step (a fetch, a regex scan) inside a cancellable call.
 */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
