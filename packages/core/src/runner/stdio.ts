import type { Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { errorMessage } from '../errors/index.js';
import type { App } from '../server/types.js';
import type { SubscriptionHub } from '../subscriptions/index.js';
import { type ListenHooks, tapListen } from './listen-tap.js';

/** Hooks that start and stop resource watches for 2026 listen streams. */
export function hubListenHooks(hub: SubscriptionHub, app: App): ListenHooks {
  return {
    onListen(owner, uris) {
      for (const uri of uris) {
        hub.acquire(owner, uri).catch((error: unknown) => {
          app.log.warn(`cannot watch ${uri}: ${errorMessage(error)}`);
        });
      }
    },
    onListenEnd(owner) {
      void hub.releaseOwner(owner);
    },
  };
}

/**
 * Serves an app over stdio (or any byte-stream transport): the SDK picks the era from the
 * opening message and pins one instance for the connection.
 *
 * @example
 * ```ts
 * const handle = serveAppStdio(app); // process stdin/stdout
 * ```
 */
export function serveAppStdio(app: App, options: { transport?: Transport } = {}): { close(): Promise<void> } {
  const transport = tapListen(options.transport ?? new StdioServerTransport(), hubListenHooks(app.hub, app));
  return serveStdio(app.factory('connection'), {
    transport,
    onerror: (error) => app.log.debug(`stdio: ${error.message}`),
  });
}
