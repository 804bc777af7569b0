/**
 * The fetch app in process for the tool tests: a local server on 127.0.0.1 with a few pages and a
 * robots.txt, the app with a DNS stub (site.test and other.test both answer 127.0.0.1, and are
 * the only names allowed), short limits, and an SDK client in the era asked for. Nothing in these
 * tests leaves 127.0.0.1.
 */
import type { App } from '@mcpkit/core/server';
import {
  type ConnectOptions,
  connect,
  type SamplingResponder,
  type TestSession,
  textOf,
} from '@mcpkit/core/testing';
import type { CallToolResult, CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { FetchContext } from '../../src/context.js';
import { createFetchApp, type FetchOptions } from '../../src/server.js';
import { articlePage } from './article.js';
import { type StubAnswer, stubResolver, TEST_LIMITS } from './clients.js';
import { type Handler, type LocalServer, startServer, text } from './local-server.js';

export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** The robots.txt every fixture serves: everything but /private. */
export const ROBOTS = 'User-agent: *\nDisallow: /private\n';

/** A small page with a title, a paragraph and links on and off the site. */
export function linksPage(port: number): string {
  return `<!DOCTYPE html><html><head><title>Index</title></head><body><main><h1>Index page</h1>
<p>The index of the test site lists its pages. <a href="/alpha">Alpha page</a>, <a href="/beta#part">Beta page</a>,
<a href="http://other.test:${port}/secret">Secret elsewhere</a>, <a href="mailto:a@b.test">mail</a>,
<a href="/alpha">Alpha again</a>, <a href="/redirect-away">Moved</a>.</p></main></body></html>`;
}

function simplePage(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
}

/** Routes every fixture serves; tests add their own with `server.route`. */
export function baseRoutes(server: () => LocalServer): Record<string, Handler> {
  return {
    '/robots.txt': text(ROBOTS, 'text/plain'),
    '/article': text(articlePage(30_000)),
    '/alpha': text(
      simplePage('Alpha', 'Apples grow on the alpha page, which is long enough to be an article.'),
    ),
    '/beta': text(simplePage('Beta', 'Bananas are the subject of the beta page and nothing else.')),
    '/index': (_req, res) => text(linksPage(server().port))(_req, res),
    '/private': text(simplePage('Private', 'Nobody should read this.')),
    '/secret': text('the secret', 'text/plain'),
    '/plain': text('line one\nline two\n', 'text/plain; charset=utf-8'),
    '/json': text('{"answer":42}', 'application/json'),
    '/missing-page': (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<p>no such page</p>');
    },
    '/redirect-away': (_req, res) => {
      res.writeHead(302, { location: `http://other.test:${server().port}/secret` });
      res.end();
    },
  };
}

/** A running fixture: the server, the app, one client session. */
export interface ToolsFixture {
  server: LocalServer;
  app: App<FetchContext>;
  session: TestSession;
  /** `http://site.test:port/path` (or on another host name). */
  url(path: string, host?: string): string;
  /** Calls a tool and returns its result and text. */
  call(name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; text: string }>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  app?: Partial<FetchOptions>;
  connect?: Partial<ConnectOptions>;
  /** Extra DNS answers. */
  dns?: Record<string, StubAnswer>;
}

/** Starts the server, the app and a session in `era`. */
export async function toolsFixture(era: Era, options: FixtureOptions = {}): Promise<ToolsFixture> {
  let server: LocalServer | undefined;
  server = await startServer(baseRoutes(() => server as LocalServer));
  const resolver = stubResolver({ 'site.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'], ...options.dns });
  const app = createFetchApp({
    allow: { hosts: ['site.test', 'other.test'] },
    resolver,
    limits: { ...TEST_LIMITS, totalTimeoutMs: 5_000, firstByteTimeoutMs: 2_000, connectTimeoutMs: 2_000 },
    ...options.app,
  });
  const session = await connect(app, { era, ...options.connect });
  const running = server;
  return {
    server: running,
    app,
    session,
    url: (path, host = 'site.test') => running.url(path, host),
    async call(name, args) {
      const result = await session.callTool(name, args);
      return { result, text: textOf(result) };
    },
    async close() {
      await session.close();
      await app.close();
      await running.close();
    },
  };
}

/** Asserts a tool failed with one sentence matching `pattern`: no stack, no internal error. */
export function expectSentence(result: CallToolResult, pattern: RegExp): void {
  const message = textOf(result);
  expect(result.isError, message).toBe(true);
  expect(message).toMatch(pattern);
  expect(message).not.toMatch(/\n\s+at |internal error|fetch failed/);
}

/** The text between the untrusted-content tags of a result, and the tag; fails when there is none. */
export function fenced(text: string): { tag: string; body: string } {
  const match = /<(untrusted-web-content-[0-9a-f]{16})>\n([\s\S]*)\n<\/\1>\n/.exec(text);
  expect(match, `no untrusted-content fence in: ${text.slice(0, 300)}`).not.toBeNull();
  return { tag: match?.[1] ?? '', body: match?.[2] ?? '' };
}

/**
 * `respond` with the local server's port written wherever its answers say `{port}`: the model's
 * tool calls are scripted before the server, and so its port, exists.
 *
 * @example
 * ```ts
 * const model = scriptedModel({ toolCalls: [{ name: 'fetch', input: { url: 'http://site.test:{port}/alpha' } }] });
 * fx = await toolsFixture(era, { connect: { sampling: withPort(model.respond, () => fx.server.port) } });
 * ```
 */
export function withPort(respond: SamplingResponder, port: () => number): SamplingResponder {
  return async (params) =>
    JSON.parse(JSON.stringify(await respond(params)).replaceAll('{port}', String(port())));
}

/** The text of each tool result the model was sent in one request, in order. */
export function toolResults(
  params: CreateMessageRequestParams | undefined,
): { text: string; isError: boolean }[] {
  const results: { text: string; isError: boolean }[] = [];
  for (const message of params?.messages ?? []) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks) {
      if (block.type !== 'tool_result') continue;
      const text = block.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      results.push({ text, isError: block.isError === true });
    }
  }
  return results;
}
