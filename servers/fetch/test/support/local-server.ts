/**
 * A local HTTP(S) server on 127.0.0.1 (port 0) for the fetch tests. It counts requests per path,
 * so an attack test can assert that a refused fetch never reached it, and it destroys every open
 * connection when closed, so slow and never-answering routes do not hold the test run.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { TEST_CERT, TEST_KEY } from './tls-fixture.js';

/** Answers one request. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A running test server. */
export interface LocalServer {
  port: number;
  /** `http://127.0.0.1:port/path`, or with another host name (mapped by the DNS stub). */
  url(path: string, host?: string): string;
  /** Requests seen for a path (query excluded). */
  hits(path: string): number;
  /** Requests seen in all. */
  total(): number;
  /** Headers of the last request to a path. */
  lastHeaders(path: string): IncomingMessage['headers'] | undefined;
  /** Adds or replaces a route. */
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a server with `routes`; unknown paths answer 404. With `tls`, it serves https. */
export async function startServer(routes: Record<string, Handler> = {}, tls = false): Promise<LocalServer> {
  const table = new Map(Object.entries(routes));
  const counts = new Map<string, number>();
  const headers = new Map<string, IncomingMessage['headers']>();
  const sockets = new Set<Socket>();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    headers.set(path, req.headers);
    const handler = table.get(path);
    if (handler) handler(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  };
  const server: Server = tls
    ? createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, handle)
    : createHttpServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = tls ? 'https' : 'http';
  return {
    port,
    url: (path, host = '127.0.0.1') => `${scheme}://${host}:${port}${path}`,
    hits: (path) => counts.get(path) ?? 0,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    lastHeaders: (path) => headers.get(path),
    route: (path, handler) => table.set(path, handler),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A route that answers `body` with `type`. */
export function text(
  body: string | Uint8Array,
  type = 'text/html; charset=utf-8',
  extra: Record<string, string> = {},
) {
  return ((_req, res) => {
    res.writeHead(200, { 'content-type': type, ...extra });
    res.end(body);
  }) satisfies Handler;
}

/** A route that redirects to `location` with `status`. */
export function redirect(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}
