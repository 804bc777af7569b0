/**
 * The fetch server's test world, for the layers that run the built bin (end to end, conformance,
 * HTTP security, packaging, `npm start`, the bench): a small HTTP server on 127.0.0.1 with two
 * pages and a robots.txt that allows them, reached because the bin is told to allow 127.0.0.1
 * (it is loopback, so the guard refuses it otherwise). Nothing goes beyond 127.0.0.1.
 */
import { defineTestWorld } from '@mcpkit/core/testing';
import { startServer, text } from './support/local-server.js';

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
}

export const world = defineTestWorld({
  tools: ['fetch', 'fetch_links', 'fetch_image', 'research'],
  async setup() {
    const server = await startServer({
      '/robots.txt': text('User-agent: *\nAllow: /\n', 'text/plain'),
      '/alpha': text(page('Alpha', 'The alpha page is about apples, which grow on trees.')),
      '/beta': text(page('Beta', 'The beta page is about bananas, which grow in bunches.')),
    });
    const read = (path: string, expect: string) => ({
      tool: 'fetch',
      args: { url: server.url(path) },
      expect,
    });
    return {
      args: ['--allow-host', '127.0.0.1'],
      bundleSettings: { allowed_hosts: '127.0.0.1' },
      reads: [read('/alpha', 'about apples'), read('/beta', 'about bananas')],
      close: () => server.close(),
    };
  },
});
