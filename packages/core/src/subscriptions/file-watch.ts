import { watch as watchDirectory } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from '../errors/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import { isTimerDelay, MAX_TIMER_MS } from '../progress/timer-delay.js';
import type { WatchFactory, WatchProvider, WatchSource } from './types.js';

/** How long a watch may take to start before the subscription is refused, unless the caller says. */
const START_TIMEOUT_MS = 15_000;

/**
 * Editor scratch files (vim's `.name.swp`, backups ending in `~`, Sublime's temporaries): an open
 * editor rewrites them every few seconds, which would keep a directory's subscribers re-reading an
 * unchanged listing. The same names chokidar's `atomic` mode skips for a file.
 */
const SCRATCH = /\..*\.sw[px]$|~$|\.subl.*\.tmp/;

export interface FileWatchOptions {
  /**
   * How long the watch may take to start, in milliseconds: above 0 and at most 2³¹−1, default
   * 15 s. Past it the watch is dropped and the subscription refused: a path whose file system has
   * stalled would otherwise keep the subscribe request waiting for ever.
   */
  startTimeoutMs?: number;
}

export interface FileWatchProviderOptions extends FileWatchOptions {
  /**
   * Maps a URI to the absolute path to watch, or `undefined` when the URI is not a file this
   * server serves. Do the roots containment check here: whatever path is returned gets watched.
   */
  toPath: (uri: string) => string | undefined;
  log?: Logger;
}

/**
 * A watch provider: one watch per URI, on exactly that file, or on that directory's listing.
 *
 * Choices, and why:
 * - A directory is watched by the operating system's own directory watch (inotify, FSEvents,
 *   ReadDirectoryChangesW), which reports any entry added, removed, renamed or written, and nothing
 *   deeper, without the watcher ever looking at an entry. Looking would be one call per entry at the
 *   start and again after every change, and one on a network or FUSE mount point inside the
 *   directory waits as long as that mount does: a stalled mount would hold the subscribe for ever
 *   and a thread-pool thread per look. So changes inside a mount (or any subdirectory) below a
 *   watched directory are not reported, and the directory costs one OS watch, not one per entry.
 * - A path that does not exist yet, or is a symbolic link, is watched through its directory, by
 *   name: its creation, replacement or removal is reported; a link's target is never watched.
 * - A file is watched with chokidar: `atomic: true` follows an editor's save-by-rename (and then
 *   skips editor scratch names); `awaitWriteFinish` off, since it polls file sizes for seconds per
 *   change and the hub's debounce already folds a burst of writes into one notification;
 *   `followSymlinks: false`, never outside the path that was vetted by `toPath`.
 * - The watch must start within `startTimeoutMs`; past it the subscription is refused (the hub
 *   answers that the resource cannot be watched) rather than left waiting on a stalled file
 *   system, and one look at a path that has not answered is shared by every later try.
 * - A path on a slow file system is the caller's to refuse (`slowPaths.isSlow`): setting an OS
 *   watch is a synchronous call, and such a file system sends no change events anyway.
 *
 * The factory resolves once the watch runs, so changes from then on are seen.
 *
 * @example
 * ```ts
 * import { fileURLToPath } from 'node:url';
 * app.hub.addWatchProvider(
 *   fileWatchProvider({ toPath: (uri) => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined) }),
 * );
 * ```
 */
export function fileWatchProvider(options: FileWatchProviderOptions): WatchProvider {
  const log = options.log ?? silentLogger;
  return (uri) => {
    const path = options.toPath(uri);
    if (path === undefined) return undefined;
    return watchFile(path, log, options);
  };
}

/**
 * Watches one file (or one directory's listing) with the choices above: what a resource
 * definition's `watch` returns for a URI it maps to a vetted path.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const path = `${dir}/settings.json`;
 * export const settings = defineResource({
 *   name: 'settings', uri: 'config:///settings', title: 'Settings', description: 'The settings, as JSON.',
 *   read: async (uri) => ({ contents: [{ uri: uri.href, text: await readFile(path, 'utf8') }] }),
 *   watch: (_uri, { app }) => watchFile(path, app.log),
 * });
 * ```
 */
export function watchFile(
  path: string,
  log: Logger = silentLogger,
  options: FileWatchOptions = {},
): WatchFactory {
  const timeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  if (!isTimerDelay(timeoutMs)) {
    throw new RangeError(`startTimeoutMs must be above 0 and at most ${MAX_TIMER_MS}, got ${timeoutMs}.`);
  }
  return (_uri, changed) => startWatch(path, changed, log, timeoutMs);
}

async function startWatch(
  path: string,
  changed: () => void,
  log: Logger,
  timeoutMs: number,
): Promise<WatchSource> {
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    const seconds = timeoutMs / 1000;
    deadline.abort(
      new Error(`the watch of ${path} did not start within ${seconds} s; its file system may be stalled`),
    );
  }, timeoutMs);
  // A subscribe waiting on a stalled path must not keep a closing process alive.
  timer.unref();
  try {
    const kind = await orAbort(kindOf(path), deadline.signal);
    if (kind === 'directory') return watchListing(path, changed, log);
    if (kind === 'file') return await watchRegularFile(path, changed, log, deadline.signal);
    return watchListing(dirname(path), changed, log, basename(path));
  } finally {
    clearTimeout(timer);
  }
}

type Kind = 'directory' | 'file' | 'by-name';

/**
 * Looks still under way, by path. A look at a stalled file system holds a thread-pool thread
 * until it answers, perhaps never: a subscriber trying again shares the look, instead of holding
 * one more thread per try until every file call in the process waits.
 */
const looking = new Map<string, Promise<Kind>>();

function kindOf(path: string): Promise<Kind> {
  let look = looking.get(path);
  if (look) return look;
  look = lstat(path)
    .then(
      (stats): Kind => (stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'by-name' : 'file'),
      (error: unknown): Kind => {
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return 'by-name';
        throw error;
      },
    )
    .finally(() => looking.delete(path));
  looking.set(path, look);
  return look;
}

/** `work`, or the signal's reason once it aborts, whichever comes first. */
function orAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/**
 * The OS's watch on one directory: any change among its entries, or only among those called
 * `name`. It never looks at an entry itself (see the choices above), and it is set at once: a
 * synchronous call that fails (no such directory, no inotify watches left) throws here.
 */
function watchListing(dir: string, changed: () => void, log: Logger, name?: string): WatchSource {
  const watcher = watchDirectory(dir, (event, entry) => {
    // Some platforms cannot say which entry changed: then it may have been the one watched.
    if (entry !== null && (name === undefined ? SCRATCH.test(entry) : entry !== name)) return;
    log.debug(`subscriptions: ${event} ${entry === null ? dir : join(dir, entry)}`);
    changed();
  });
  // A listener stays attached for good: an unhandled 'error' event would crash the process.
  watcher.on('error', (error) => log.warn(`subscriptions: watching ${dir} failed: ${errorMessage(error)}`));
  return { close: () => watcher.close() };
}

async function watchRegularFile(
  path: string,
  changed: () => void,
  log: Logger,
  deadline: AbortSignal,
): Promise<WatchSource> {
  // Loaded on the first file watch: a server nobody subscribes to never pays for chokidar at start-up.
  const { watch } = await import('chokidar');
  deadline.throwIfAborted();
  const watcher = watch(path, {
    ignoreInitial: true,
    // Were the file replaced by a directory meanwhile, its entries would be looked at: none of them.
    depth: 0,
    atomic: true,
    awaitWriteFinish: false,
    followSymlinks: false,
  });
  // `all` covers add, change and unlink.
  watcher.on('all', (event, changedPath) => {
    log.debug(`subscriptions: ${event} ${changedPath}`);
    changed();
  });
  let started = false;
  const failedToStart = new Promise<never>((_resolve, reject) => {
    // A listener stays attached for good: an unhandled 'error' event would crash the process.
    watcher.on('error', (error) => {
      // Before the first scan ends an error (no inotify watches left, EACCES) means there is no watch.
      if (!started) reject(error);
      else log.warn(`subscriptions: watching ${path} failed: ${errorMessage(error)}`);
    });
  });
  try {
    const ready = new Promise<void>((resolve) =>
      watcher.once('ready', () => {
        started = true;
        resolve();
      }),
    );
    await orAbort(Promise.race([ready, failedToStart]), deadline);
  } catch (error) {
    // Closed, it also drops whatever a late answer from the file system would have set up.
    await watcher.close();
    throw error;
  }
  return { close: () => watcher.close() };
}
