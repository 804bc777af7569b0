import { errorMessage } from '../errors/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import type { WatchFactory, WatchProvider, WatchSource } from './types.js';

export interface PollProviderOptions {
  /** True for the URIs this provider watches. */
  match: (uri: string) => boolean;
  /** Pause between the end of one poll and the start of the next. */
  intervalMs: number;
  /**
   * A cheap tag that changes whenever the resource does: an HTTP ETag, SQLite's `data_version`, a
   * git ref's sha. `undefined` is a valid tag (say, "does not exist"). Honour `signal`: it aborts
   * when the watch closes.
   */
  version: (uri: string, signal: AbortSignal) => Promise<string | undefined>;
  log?: Logger;
}

/**
 * A watch provider for things no file watcher can see: it polls a version tag per URI and reports a
 * change whenever the tag differs from the previous one. The next poll is scheduled only after the
 * previous one finished, so a slow source is never asked twice at once. A failing poll is logged
 * and polling goes on; the tag before the failure stays the reference. Timers are `unref()`ed.
 *
 * The factory takes the first tag before it resolves, so a change made after subscribing is seen.
 *
 * @example
 * ```ts
 * app.hub.addWatchProvider(
 *   pollProvider({
 *     match: (uri) => uri.startsWith('git://'), // git://<ref>
 *     intervalMs: 2_000,
 *     version: async (uri, signal) =>
 *       (await runProcess('git', ['rev-parse', uri.slice(6)], { cwd: dir, signal })).stdout.trim(),
 *   }),
 * );
 * ```
 */
export function pollProvider(options: PollProviderOptions): WatchProvider {
  if (!Number.isFinite(options.intervalMs) || options.intervalMs <= 0) {
    throw new RangeError(`intervalMs must be a positive number, got ${options.intervalMs}`);
  }
  return (uri) => (options.match(uri) ? pollWatch(options) : undefined);
}

/**
 * Watches one URI by polling its version tag, as {@link pollProvider} does: what a resource
 * definition's `watch` returns for a URI no file watcher can see.
 *
 * @example
 * ```ts
 * const head = async (signal?: AbortSignal) =>
 *   (await runProcess('git', ['rev-parse', 'HEAD'], { cwd: dir, signal })).stdout.trim();
 * export const headCommit = defineResource({
 *   name: 'head', uri: 'git:///HEAD', title: 'HEAD', description: 'The commit checked out.',
 *   read: async (uri, call) => ({ contents: [{ uri: uri.href, text: await head(call.signal) }] }),
 *   watch: () => pollWatch({ intervalMs: 2_000, version: (_uri, signal) => head(signal) }),
 * });
 * ```
 */
export function pollWatch(options: Omit<PollProviderOptions, 'match'>): WatchFactory {
  if (!Number.isFinite(options.intervalMs) || options.intervalMs <= 0) {
    throw new RangeError(`intervalMs must be a positive number, got ${options.intervalMs}`);
  }
  const log = options.log ?? silentLogger;
  return (uri, changed) => startPolling(uri, changed, options, log);
}

async function startPolling(
  uri: string,
  changed: () => void,
  options: Omit<PollProviderOptions, 'match'>,
  log: Logger,
): Promise<WatchSource> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let known = false;
  let last: string | undefined;
  let failing = false;

  const poll = async (): Promise<void> => {
    try {
      const current = await options.version(uri, controller.signal);
      if (closed) return;
      failing = false;
      if (known && current !== last) changed();
      last = current;
      known = true;
    } catch (error) {
      if (closed) return;
      // Warn once when a source starts failing; repeating it every interval would drown the log.
      const message = `subscriptions: polling ${uri} failed: ${errorMessage(error)}`;
      if (failing) log.debug(message);
      else log.warn(message);
      failing = true;
    }
  };

  const scheduleNext = (): void => {
    timer = setTimeout(async () => {
      timer = undefined;
      await poll();
      if (!closed) scheduleNext();
    }, options.intervalMs);
    timer.unref();
  };

  await poll();
  scheduleNext();
  return {
    close() {
      closed = true;
      controller.abort();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
