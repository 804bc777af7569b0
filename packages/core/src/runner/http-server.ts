/**
 * Streamable HTTP for both protocol eras, hardened. The composition is the SDK's recipe (a strict
 * `createMcpHandler` for 2026-07-28, a sessionful transport per 2025 session, routed by
 * `isLegacyRequest`), with every gap of §9 items 13–19 closed in front of it. Order of checks:
 * target form → path → duplicate headers → Host → Origin → bearer → method → protocol version →
 * Accept / Content-Type → capped body → depth → JSON → batch → era routing. The 2025 leg keeps a
 * bounded SSE event store (`event-store.ts`) so a dropped stream resumes with `Last-Event-ID`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  type McpHttpHandler,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { errorMessage } from '../errors/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import { type EventStoreLimits, SseEventStore } from './event-store.js';
import { createAuthenticator, type TokenVerifier } from './http-auth.js';
import { readBody } from './http-body.js';
import { isLegacyExchange } from './http-era.js';
import { type HttpRejection, INTERNAL_ERROR, reject, SERVER_ERROR, sendRejection } from './http-errors.js';
import {
  checkDuplicateHeaders,
  checkHost,
  checkOrigin,
  checkPostAccept,
  checkPostContentType,
  checkProtocolVersion,
  checkRequestTarget,
  type HostPolicy,
  isLoopbackBindHost,
  targetPath,
} from './http-guards.js';
import { parseJsonRpcBody } from './http-json.js';
import { type Caller, createLegacyLeg } from './http-legacy.js';
import { listenResourceUris } from './http-listen.js';
import { LegacySessionStore } from './http-sessions.js';

export interface HttpServerOptions {
  /** ONE factory for both eras; called with `{ era, authInfo }`. */
  factory: McpServerFactory;
  /** Interface to bind; default `127.0.0.1`. Anything not loopback requires a token. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default `/mcp`. */
  path?: string;
  /** Bearer token every request must carry; required when `host` is not loopback. */
  token?: string;
  /**
   * Maps a bearer token to a principal id (or `undefined` to refuse it), for deployments with
   * several clients; it replaces the single-`token` comparison. Legacy sessions are bound to the
   * principal that opened them.
   */
  verifyToken?: TokenVerifier;
  /** Extra allowed Origins (exact origin strings); loopback origins are always allowed. */
  allowedOrigins?: string[];
  /** Extra allowed Host names (`name` for any port, `name:port` for one). */
  allowedHosts?: string[];
  /** Default 4 MiB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Default 64; deeper JSON gets 400. */
  maxJsonDepth?: number;
  /** Default 100 legacy sessions; past it the least recently used one is closed. */
  maxSessions?: number;
  /** Default 30 min; a legacy session idle that long is closed. */
  sessionIdleMs?: number;
  /**
   * SSE resumption on the 2025 leg: caps of the bounded event store (defaults in
   * `event-store.ts`) and `retryMs`, the reconnect delay sent in each priming event (default 1 s).
   */
  resumption?: Partial<EventStoreLimits> & { retryMs?: number };
  /** Default 10 s: time allowed for the request head. */
  headersTimeoutMs?: number;
  /** Default 30 s: time allowed for the whole request (head and body; not the response stream). */
  requestTimeoutMs?: number;
  /** Default 5 s: how long an idle keep-alive socket is kept. */
  keepAliveTimeoutMs?: number;
  log?: Logger;
  /** The modern handler was created; the caller wires `handler.notify` into its notification hub. */
  onModernHandler?: (handler: McpHttpHandler) => void;
  /**
   * A modern `subscriptions/listen` POST was accepted: the caller starts watches for these URIs;
   * `onListenEnd(owner)` fires when that response stream closes.
   */
  onListen?: (owner: object, resourceUris: string[]) => void;
  onListenEnd?: (owner: object) => void;
}

export interface HttpServerHandle {
  /** The endpoint, e.g. `http://127.0.0.1:49152/mcp`. */
  url: string;
  port: number;
  /** Stops accepting, closes every session and stream; safe to call twice. */
  close(): Promise<void>;
  /** Live legacy (2025-era) sessions. */
  readonly sessionCount: number;
}

const MiB = 1024 * 1024;

/**
 * Serves `factory` over Streamable HTTP to 2025 and 2026-07-28 clients on one endpoint, with Host,
 * Origin and bearer checks, body, depth and session caps, and tight socket timeouts.
 *
 * @example
 * ```ts
 * import { httpFactory } from './run.js';
 * const factory = httpFactory(app);
 * const http = await startHttpServer({ factory, port: 8808, token: process.env.MCPKIT_TOKEN });
 * log.info(`listening on ${http.url}`);
 * process.on('SIGTERM', () => void http.close());
 * ```
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const log = options.log ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * MiB;
  const maxJsonDepth = options.maxJsonDepth ?? 64;
  const auth = createAuthenticator(options);
  // Fail closed on configuration: a non-loopback bind needs a token.
  if (!isLoopbackBindHost(host) && !auth.enabled) {
    throw new Error(
      `Refusing to listen on ${host} without a bearer token; set MCPKIT_TOKEN or bind to 127.0.0.1.`,
    );
  }

  // 1 s: the SDK client's own first reconnect delay; short enough that a resumed call barely
  // stalls, long enough that a client whose session is gone does not hammer the server.
  const { retryMs = 1_000, ...limits } = options.resumption ?? {};
  if (!Number.isInteger(retryMs) || retryMs < 0) {
    throw new RangeError(`The SSE retry delay must be a whole number of milliseconds, not ${retryMs}.`);
  }
  // Built before anything that holds resources, so a bad limit fails start-up cleanly.
  const events = new SseEventStore(limits);

  const handler = createMcpHandler(options.factory, {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => log.debug(`modern handler: ${error.message}`),
  });
  options.onModernHandler?.(handler);
  const modern = toNodeHandler(handler, {
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => log.warn(`modern handler failed: ${error.message}`),
  });
  const store = new LegacySessionStore({
    maxSessions: options.maxSessions ?? 100,
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    log,
  });
  const legacy = createLegacyLeg({
    factory: options.factory,
    store,
    maxBodyBytes,
    events,
    retryMs,
    log,
  });
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const hostPolicy: HostPolicy = {
    port: 0,
    allowedHosts: allowedHostNames(host, options.allowedHosts ?? []),
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<HttpRejection | undefined> => {
    const head =
      checkRequestTarget(req.url) ??
      (targetPath(req.url ?? '') === path ? undefined : reject(404, SERVER_ERROR, 'Not Found.')) ??
      checkDuplicateHeaders(req) ??
      checkHost(req, hostPolicy) ??
      checkOrigin(req, allowedOrigins);
    if (head) return head;
    const who = auth.authenticate(req);
    if (!who.ok) return who.rejection;
    const method = req.method ?? '';
    if (method !== 'POST' && method !== 'GET' && method !== 'DELETE') {
      return reject(405, SERVER_ERROR, 'Method Not Allowed.', { headers: { allow: 'GET, POST, DELETE' } });
    }
    let message: Record<string, unknown> | undefined;
    if (method === 'POST') {
      const shape = checkPostAccept(req) ?? checkPostContentType(req);
      if (shape) return shape;
      const body = await readBody(req, maxBodyBytes);
      if (!body.ok) return body.rejection;
      const parsed = parseJsonRpcBody(body.text, maxJsonDepth);
      if (!parsed.ok) return parsed.rejection;
      message = parsed.message;
    }
    const version = checkProtocolVersion(req, message);
    if (version) return version;

    const caller: Caller = { principal: who.principal, authInfo: who.authInfo };
    if (await isLegacyExchange(req, message, maxBodyBytes)) {
      await legacy(req, res, message, caller);
      return undefined;
    }
    const uris = message === undefined ? undefined : listenResourceUris(message);
    if (uris !== undefined && options.onListen) {
      const owner = {};
      options.onListen(owner, uris);
      res.once('close', () => options.onListenEnd?.(owner));
    }
    const authed = req as IncomingMessage & { auth?: AuthInfo };
    if (caller.authInfo !== undefined) authed.auth = caller.authInfo;
    await modern(authed, res, message);
    return undefined;
  };

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  const server = createServer(
    {
      // With SDK 2.4, Node's defaults let a slow client hold a socket for minutes.
      headersTimeout: requestTimeout > 0 ? Math.min(headersTimeout, requestTimeout) : headersTimeout,
      // Counts until the request (head and body) is complete, so it cuts an endless body but not
      // a long-lived SSE response; the tests hold a stream open past it to prove that.
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      // The timeouts above are only enforced when this sweep runs; Node's default is every 30 s.
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(headersTimeout / 4))),
      requireHostHeader: true,
    },
    (req, res) => {
      const started = Date.now();
      res.once('close', () => {
        // No header values are logged: Authorization must never reach a log.
        log.debug(`${req.method ?? '?'} ${safePath(req.url)} ${res.statusCode} ${Date.now() - started}ms`);
      });
      route(req, res).then(
        (rejection) => {
          // A refused request whose body was never read cannot leave the socket reusable: Node
          // would drain the rest of it, however long, to keep the connection alive.
          if (rejection)
            sendRejection(res, req.complete ? rejection : { ...rejection, closeConnection: true });
        },
        (error: unknown) => {
          log.error(`request failed: ${errorMessage(error)}`);
          sendRejection(res, reject(500, INTERNAL_ERROR, 'Internal error.'));
        },
      );
    },
  );

  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', rejectListen);
      resolve();
    });
  });
  server.on('error', (error) => log.error(`http server: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  hostPolicy.port = port;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await store.closeAll();
      await handler.close().catch(() => undefined);
      server.closeIdleConnections();
      // Streams normally end with their transports; whatever is left (a half-sent request) is cut.
      const force = setTimeout(() => server.closeAllConnections(), 500);
      await stopped;
      clearTimeout(force);
    })();
    return closing;
  };

  return {
    url: `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}${path}`,
    port,
    close,
    get sessionCount() {
      return store.size;
    },
  };
}

/** Host names accepted besides loopback: the configured ones plus a specific (non-wildcard) bind address. */
function allowedHostNames(bindHost: string, extra: readonly string[]): string[] {
  const names = extra.map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  const bind = bindHost.toLowerCase();
  if (bind !== '0.0.0.0' && bind !== '::' && bind !== '[::]' && !isLoopbackBindHost(bind)) {
    names.push(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  }
  return names;
}

/** The path of a request target for logs: no query string (it may carry secrets), bounded length. */
function safePath(url: string | undefined): string {
  if (url === undefined || !url.startsWith('/')) return '-';
  return targetPath(url).slice(0, 200);
}
