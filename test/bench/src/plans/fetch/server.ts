/**
 * The fetch bench's web server on 127.0.0.1: `/article` (the long article, whatever the query
 * string, so each call can use a URL no cache has seen), `/page/<n>` (small pages) and a
 * robots.txt that allows everything. Pages are built once and served from memory.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { articlePage, smallPage } from './pages.js';

export interface BenchWebServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  articleBytes: number;
  close(): Promise<void>;
}

export async function startWebServer(
  seed: number,
  articleBytes: number,
  smallPages: number,
): Promise<BenchWebServer> {
  const article = Buffer.from(articlePage(seed, articleBytes));
  const small = Array.from({ length: smallPages }, (_, i) => Buffer.from(smallPage(seed, i)));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, type: string, body: Buffer | string) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (path === '/robots.txt') return send(200, 'text/plain', 'User-agent: *\nAllow: /\n');
    if (path === '/article') return send(200, 'text/html; charset=utf-8', article);
    const match = /^\/page\/(\d+)$/.exec(path);
    const page = match ? small[Number(match[1])] : undefined;
    if (page) return send(200, 'text/html; charset=utf-8', page);
    return send(404, 'text/plain', 'not found');
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    articleBytes: article.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
