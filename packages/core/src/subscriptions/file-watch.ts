import { errorMessage } from '../errors/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import type { WatchFactory, WatchProvider, WatchSource } from './types.js';

export interface FileWatchProviderOptions {
  /**
   * Maps a URI to the absolute path to watch, or `undefined` when the URI is not a file this
   * server serves. Do the roots containment check here: whatever path is returned gets watched.
   */
  toPath: (uri: string) => string | undefined;
  log?: Logger;
}

/**
 * A watch provider backed by chokidar: one watcher per URI, on exactly that file, or on that
 * directory and its direct entries (depth 0), since a directory resource is its listing.
 *
 * Choices, and why:
 * - `ignoreInitial`: the initial scan reports what already exists; only later changes matter.
 * - `atomic: true`: an editor's save-by-rename (unlink then add within 100 ms) reads as one change.
 *   Side effect: chokidar then ignores editor scratch names (`*~`, `.*.swp`, `*.subl*.tmp`).
 * - `awaitWriteFinish` off: it polls file sizes for seconds per change; the hub's debounce already
 *   folds a burst of writes into one notification.
 * - `followSymlinks: false`: never watch outside the path that was vetted by `toPath`.
 *
 * The factory resolves after chokidar's initial scan, so changes from then on are seen.
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
    return watchFile(path, log);
  };
}

/**
 * Watches one file (or one directory and its direct entries) with the choices above: what a
 * resource definition's `watch` returns for a URI it maps to a vetted path.
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
export function watchFile(path: string, log: Logger = silentLogger): WatchFactory {
  return (_uri, changed) => watchPath(path, changed, log);
}

async function watchPath(path: string, changed: () => void, log: Logger): Promise<WatchSource> {
  // Loaded on the first watch: a server nobody subscribes to never pays for chokidar at start-up.
  const { watch } = await import('chokidar');
  const watcher = watch(path, {
    ignoreInitial: true,
    depth: 0,
    atomic: true,
    awaitWriteFinish: false,
    followSymlinks: false,
  });
  // `all` covers add, change, unlink and, for a directory, addDir/unlinkDir of its entries.
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
    await Promise.race([ready, failedToStart]);
  } catch (error) {
    await watcher.close();
    throw error;
  }
  return { close: () => watcher.close() };
}
