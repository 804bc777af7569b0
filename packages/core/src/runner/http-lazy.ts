import type { HttpServerHandle, HttpServerOptions } from './http-server.js';

export type { HttpServerHandle, HttpServerOptions };

/**
 * Starts the Streamable HTTP server (see `http-server.ts`). The HTTP stack is loaded on the first
 * call, so a bin that serves stdio never pays for it at start-up.
 *
 * @example
 * ```ts
 * import { httpFactory } from './run.js';
 * const server = await startHttpServer({ factory: httpFactory(app), port: 0 });
 * console.error(`listening on ${server.url}`);
 * ```
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const { startHttpServer: start } = await import('./http-server.js');
  return start(options);
}
