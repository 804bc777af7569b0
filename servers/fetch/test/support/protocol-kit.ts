/**
 * The fetch app in process for the protocol tests: a 127.0.0.1 server, a DNS stub that maps
 * `site.test` to it, and an app that allows `site.test` and nothing else private, so a literal
 * `127.0.0.1` URL or any other name stays refused. Pages enter the cache the way the tools put
 * them there (a fetch through the page cache, which announces them), so these tests do not depend
 * on the tools.
 */
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import type { FetchContext } from '../../src/context.js';
import { cacheUri } from '../../src/resources/cache-uri.js';
import { createFetchApp } from '../../src/server.js';
import { type StubAnswer, type StubResolver, stubResolver, TEST_LIMITS } from './clients.js';
import { type Handler, type LocalServer, startServer } from './local-server.js';

/** The host name the app may reach; the stub resolves it to 127.0.0.1. */
export const SITE = 'site.test';

/** One app, its local server and the sessions opened on it. */
export interface FetchWorld {
  app: App<FetchContext>;
  server: LocalServer;
  resolver: StubResolver;
  /** `http://site.test:port/path`. */
  url(path: string): string;
  /** The `fetch://cache/…` URI of a path's page. */
  uri(path: string): string;
  /** Fetches a page into the cache as the fetch tool does (the cache announces it). */
  fill(path: string): Promise<string>;
  connect(era: 'legacy' | 'modern'): Promise<TestSession>;
  close(): Promise<void>;
}

/**
 * Starts the world. Notifications are debounced for 10 ms and subscribed pages revalidated every
 * `revalidateIntervalMs` (100 ms unless given), so the tests do not wait on production intervals.
 * `dns` adds names to the stub (resolving them does not make them allowed).
 */
export async function fetchWorld(
  routes: Record<string, Handler>,
  options: { revalidateIntervalMs?: number; dns?: Record<string, StubAnswer> } = {},
): Promise<FetchWorld> {
  const server = await startServer(routes);
  const resolver = stubResolver({ ...options.dns, [SITE]: ['127.0.0.1'] });
  const app = createFetchApp({
    allow: { hosts: [SITE] },
    resolver,
    limits: TEST_LIMITS,
    notifyDebounceMs: 10,
  });
  app.context.pages.revalidateIntervalMs = options.revalidateIntervalMs ?? 100;
  const sessions: TestSession[] = [];
  const url = (path: string) => server.url(path, SITE);
  return {
    app,
    server,
    resolver,
    url,
    uri: (path) => cacheUri(url(path)),
    async fill(path) {
      const target = url(path);
      await app.context.pages.fetch(app.context.client, target);
      // Let the announcement go out (10 ms debounce) before a test subscribes, so a subscriber
      // only hears of what happens after it subscribed.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return target;
    },
    async connect(era) {
      const session = await connect(app, { era });
      sessions.push(session);
      return session;
    },
    async close() {
      for (const session of sessions) await session.close().catch(() => undefined);
      await app.close();
      await server.close();
    },
  };
}

/** An HTML page with a title, a section heading (`## Section`) and a paragraph. */
export function page(title: string, text: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><h2>Section</h2><p>${text}</p></main></body></html>`;
}

/** A one-sentence message: no stack, no absolute path of this machine. */
export function oneSentence(message: string): boolean {
  return !/\n\s+at |\/work\/|\/home\/|node_modules/.test(message) && message.length < 400;
}
