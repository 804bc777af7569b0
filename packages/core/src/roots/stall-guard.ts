/**
 * The guard that keeps a stalled mount from stalling the server. A call on a slow file system (see
 * `slow-paths.ts`) gets a deadline, renewed whenever it makes progress; when the deadline passes,
 * the call answers with one sentence while the stuck system call is left to finish in the
 * background, its signal aborted so nothing it does afterwards is committed. And only a few such
 * calls run at once: a system call stuck on a dead NFS server holds one of libuv's threads (four
 * unless UV_THREADPOOL_SIZE says more) until the server comes back, and if they were all held,
 * every file call in the process would wait, on local disks too.
 */
import { UserError } from '../errors/index.js';
import { isTimerDelay, MAX_TIMER_MS } from '../progress/timer-delay.js';
import { type SlowPaths, slowPaths } from './slow-paths.js';

/** Options for {@link StallGuard}. */
export interface StallGuardOptions {
  /**
   * How long a call on a slow file system may go without progress, in milliseconds: above 0 and at
   * most 2³¹−1 (about 24.8 days, the longest a timer waits).
   */
  timeoutMs: number;
  /**
   * Calls on slow file systems running at once, a whole number of at least 1. Default: the thread
   * pool's size less two, at least 1.
   */
  slots?: number;
  /** Which paths are slow; default the process's {@link slowPaths}. */
  paths?: SlowPaths;
}

/** One call's view of the guard: what the handler tells it, and the signal it must obey. */
export interface StallScope {
  /** The call's signal, also aborted when the call is given up as stalled. */
  readonly signal: AbortSignal;
  /**
   * Tells the guard the call is about to use `real` (shown as `display` in messages). On a slow file
   * system this waits for a slot and starts the deadline; on a local one it does nothing.
   */
  enter(real: string, display: string): Promise<void>;
  /** The call made progress: the deadline starts again. */
  alive(): void;
}

/** Each live scope by its signal, for code that is handed a call's signal but not its scope. */
const bySignal = new WeakMap<AbortSignal, StallScope>();

/**
 * The stall scope whose signal this is, if any: a walk that was handed `call.signal` can put a slow
 * mount it comes across below a local root under the call's guard.
 *
 * @example
 * ```ts
 * await stallScopeOf(call.signal)?.enter(`${dir}/nas`, 'nas');
 * ```
 */
export function stallScopeOf(signal: AbortSignal | undefined): StallScope | undefined {
  return signal ? bySignal.get(signal) : undefined;
}

/**
 * Refuses options no guard can work with. A mistake in the server's own code, not the user's:
 * a command-line value is checked, with its own sentence, where it is read.
 */
function checkOptions(options: StallGuardOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('StallGuard needs its options, at least { timeoutMs }.');
  const { timeoutMs, slots, paths } = options;
  const timeout = `StallGuard timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}`;
  if (typeof timeoutMs !== 'number') throw new TypeError(`${timeout}; got ${typeof timeoutMs}.`);
  if (!isTimerDelay(timeoutMs)) throw new RangeError(`${timeout}; got ${timeoutMs}.`);
  const slotCount = 'StallGuard slots must be a whole number of at least 1';
  if (slots !== undefined && typeof slots !== 'number')
    throw new TypeError(`${slotCount}; got ${typeof slots}.`);
  if (slots !== undefined && !(Number.isSafeInteger(slots) && slots >= 1))
    throw new RangeError(`${slotCount}; got ${slots}.`);
  // Asked of its shape, not its class: two copies of this package each have their own SlowPaths.
  if (paths !== undefined && typeof (paths as Partial<SlowPaths> | null)?.isSlow !== 'function')
    throw new TypeError('StallGuard paths must be a SlowPaths, or left out for the process’s own.');
}

/**
 * How long a file-system call on a network or FUSE mount may go without progress, unless the
 * operator says otherwise: long enough for a slow share, short enough that a stalled one is
 * reported while someone is still waiting.
 */
export const DEFAULT_STALL_TIMEOUT_MS = 15_000;

/** The thread pool libuv gives file calls, as this process set it. */
function poolSize(): number {
  const size = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? '', 10);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/**
 * @example
 * ```ts
 * const guard = new StallGuard({ timeoutMs: 15_000 });
 * const roots = await RootSet.create([dir]);
 * const found = await guard.run(call.signal, async (scope) => {
 *   // resolve enters the scope: on a slow mount the deadline and a slot apply from here on
 *   const file = await roots.resolve('notes.txt', { scope });
 *   return file.exists; // pass scope.signal to whatever reads it
 * });
 * ```
 */
export class StallGuard {
  readonly timeoutMs: number;
  readonly paths: SlowPaths;
  #free: number;
  readonly #waiting: (() => void)[] = [];

  /** @throws RangeError or TypeError when an option makes no sense (see {@link StallGuardOptions}). */
  constructor(options: StallGuardOptions) {
    checkOptions(options);
    this.timeoutMs = options.timeoutMs;
    this.paths = options.paths ?? slowPaths;
    this.#free = options.slots ?? Math.max(1, poolSize() - 2);
  }

  /**
   * Runs a handler's body. It settles with the body, or, once the body has entered a slow file
   * system, with a stalled-call sentence when the deadline passes or the cancel when `signal` fires,
   * without waiting for a system call that may never return. Without `signal` (a listing or a
   * completion, which has no cancel) only the deadline ends it.
   */
  run<T>(signal: AbortSignal | undefined, body: (scope: StallScope) => Promise<T>): Promise<T> {
    const scope = new Scope(this, signal);
    let work: Promise<T>;
    try {
      work = body(scope);
    } catch (error) {
      scope.end();
      return Promise.reject(error);
    }
    void work.then(
      () => scope.end(),
      () => scope.end(),
    );
    return Promise.race([work, scope.given]);
  }

  /** Takes a slot, waiting for one while `scope` is not given up. */
  async take(scope: Scope): Promise<void> {
    scope.signal.throwIfAborted();
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        scope.signal.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(scope.signal.reason);
      };
      this.#waiting.push(grant);
      scope.signal.addEventListener('abort', leave, { once: true });
    });
  }

  /** Gives a slot back, to the longest waiting call if there is one. */
  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }
}

/** @internal One call under the guard. */
class Scope implements StallScope {
  readonly #guard: StallGuard;
  /** Aborted by the outer signal, or when the call is given up as stalled. */
  readonly #stall = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #follow = () => this.#stall.abort(this.#outer?.reason);
  /** Rejects when the call is given up (stalled or cancelled after entering a slow file system). */
  readonly given: Promise<never>;
  #give: (reason: unknown) => void = () => {};
  #timer: NodeJS.Timeout | undefined;
  #display = '';
  #entering: Promise<void> | undefined;
  #holds = false;
  #ended = false;

  constructor(guard: StallGuard, outer: AbortSignal | undefined) {
    this.#guard = guard;
    this.#outer = outer;
    // A listener removed at the end, not AbortSignal.any: a long-lived outer signal would keep
    // every call's combined signal alive.
    if (outer?.aborted) this.#stall.abort(outer.reason);
    else outer?.addEventListener('abort', this.#follow, { once: true });
    this.given = new Promise<never>((_, reject) => {
      this.#give = reject;
    });
    // Settling the race is the only use of `given`: never an unhandled rejection.
    this.given.catch(() => {});
    bySignal.set(this.#stall.signal, this);
  }

  get signal(): AbortSignal {
    return this.#stall.signal;
  }

  enter(real: string, display: string): Promise<void> {
    // Cancelled before it reached a slow path: stop here, not in a call that may never return.
    this.signal.throwIfAborted();
    // A second path of the same call waits for the same slot.
    if (this.#entering || this.#ended || !this.#guard.paths.isSlow(real))
      return this.#entering ?? Promise.resolve();
    this.#display = display;
    this.signal.addEventListener('abort', () => this.#give(this.signal.reason), { once: true });
    this.#entering = this.#takeSlot();
    return this.#entering;
  }

  async #takeSlot(): Promise<void> {
    this.#arm();
    await this.#guard.take(this);
    if (this.#ended) return this.#guard.give();
    this.#holds = true;
    // The wait for the slot does not count against the call's own deadline.
    this.#arm();
  }

  alive(): void {
    if (this.#timer && !this.#ended && !this.signal.aborted) this.#arm();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener('abort', this.#follow);
    if (this.#holds) this.#guard.give();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const seconds = Math.max(0.001, Math.round(this.#guard.timeoutMs) / 1000);
      const what = this.#holds
        ? `did not answer within ${seconds} s: the network or FUSE file system it is on may be stalled`
        : `could not be reached within ${seconds} s: earlier calls on network or FUSE file systems are still waiting for theirs`;
      this.#stall.abort(
        new UserError(
          `"${this.#display}" ${what}; try again later, or ask the operator to check that mount.`,
        ),
      );
    }, this.#guard.timeoutMs);
    this.#timer.unref();
  }
}
