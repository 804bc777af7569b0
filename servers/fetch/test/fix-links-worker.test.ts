/**
 * Links are listed in the conversion worker, not on the server's thread: the same answer as
 * in-thread, the same deadline (a page slow to list is stopped and its thread replaced), and
 * through the tool, a page of very many links leaves the server free to answer other requests
 * while it is listed, and each page of the list stays under the output limit. Needs `npx tsc -b`
 * first (the worker runs from dist).
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { closeConvertWorkers, convertThreads, listLinks } from '../src/html/convert-page.js';
import { pageLinks } from '../src/html/links.js';
import type { HtmlLimits } from '../src/html/normalize-html.js';
import { TEST_LIMITS } from './support/clients.js';
import { text } from './support/local-server.js';
import { ERAS, fenced, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

const url = new URL('https://news.example/2024/post.html');
const bytes = (html: string) => new TextEncoder().encode(html);

/** 200 000 nested divs, caps lifted: measured, listing them takes more than 120 s in a thread. */
const SLOW_LINKS = bytes(`${'<div>'.repeat(200_000)}<a href="/x">x</a>`);
const NO_CAPS: HtmlLimits = {
  maxChars: 100_000_000,
  maxElements: 10_000_000,
  maxDepth: 10_000_000,
  maxListDepth: 10_000_000,
  maxCost: Number.POSITIVE_INFINITY,
};

/** A page of `count` links, each to its own path (`pad` makes the paths longer). */
function manyLinks(count: number, pad = ''): string {
  const links = Array.from({ length: count }, (_, i) => `<a href="/p/${i}${pad}">Link ${i}</a>`);
  return `<!DOCTYPE html><html><head><title>Many</title></head><body>${links.join('\n')}</body></html>`;
}

/** Bytes of a result's text and its structured copy: what the output limit bounds. */
function resultBytes(result: CallToolResult): number {
  const textBytes = result.content.reduce(
    (sum, block) => sum + (block.type === 'text' ? utf8ByteLength(block.text) : 0),
    0,
  );
  return textBytes + utf8ByteLength(JSON.stringify(result.structuredContent));
}

type Links = { total: number; links: { url: string; text: string }[]; nextCursor?: string };

afterAll(async () => {
  await closeConvertWorkers();
});

describe('listLinks in a worker thread', () => {
  it('gives the same links as listing them in-thread', async () => {
    const page = bytes(
      `<base href="https://news.example/other/"><a href="a#x">A</a><a href="https://elsewhere.example/b">B</a><a href="mailto:x@y">m</a>`,
    );
    for (const sameOrigin of [false, true])
      expect(await listLinks(page, 'text/html', url, { sameOrigin })).toEqual(
        pageLinks(page, 'text/html', url, { sameOrigin }),
      );
    const many = bytes(manyLinks(2_000));
    expect((await listLinks(many, 'text/html', url)).links).toHaveLength(2_000);
  });

  it('refuses a body that is not HTML with the same sentence as in-thread', async () => {
    const body = bytes('{"links":[]}');
    const error = await listLinks(body, 'application/json', url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(() => pageLinks(body, 'application/json', url)).toThrow((error as Error).message);
  });

  // How long the stop took is not asserted: the sentence names the 0.5 s deadline, and without
  // it the slow page would outlast the test timeout.
  it('stops a page slow to list at its deadline, ends its thread, and lists the next page', {
    timeout: 30_000,
  }, async () => {
    await listLinks(bytes('<a href="/warm">warm</a>'), 'text/html', url);
    const before = convertThreads().ids;
    expect(before).toHaveLength(1);
    const error = await listLinks(SLOW_LINKS, 'text/html', url, { limits: NO_CAPS, timeoutMs: 500 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      `Listing the links of ${url.href} took longer than 0.5 s and was stopped; read the page with fetch instead, or fetch a smaller page.`,
    );
    expect(convertThreads().ids).not.toContain(before[0]);
    const next = await listLinks(bytes('<a href="/after">after</a>'), 'text/html', url);
    expect(next.links).toEqual([{ url: 'https://news.example/after', text: 'after' }]);
  });
});

describe.each(ERAS)('fetch_links on a page of very many links, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  const start = (outputLimitBytes: number) =>
    toolsFixture(era, {
      app: {
        outputLimitBytes,
        limits: {
          ...TEST_LIMITS,
          maxBytes: 2 * 1024 * 1024,
          totalTimeoutMs: 5_000,
          firstByteTimeoutMs: 2_000,
        },
      },
    });

  it('answers other requests while it lists them, and returns a page under the output limit', async () => {
    const limit = 64 * 1024;
    fx = await start(limit);
    fx.server.route('/many', text(manyLinks(10_000)));
    let listed = false;
    const listing = fx.call('fetch_links', { url: fx.url('/many') }).finally(() => {
      listed = true;
    });
    // The event: a conversion thread has taken the page. On the server's thread, it never would.
    await vi.waitFor(() => expect(convertThreads().busy).toBe(1), { timeout: 15_000, interval: 2 });
    const other = await fx.call('fetch', { url: fx.url('/plain'), raw: true });
    expect(fenced(other.text).body).toBe('line one\nline two\n');
    // Answered while the links were still being listed.
    expect(listed).toBe(false);

    const { result, text: shown } = await listing;
    const out = result.structuredContent as Links;
    expect(out.total).toBe(10_000);
    expect(out.links).toHaveLength(200);
    expect(out.links[0]).toEqual({ url: fx.url('/p/0'), text: 'Link 0' });
    expect(out.nextCursor).toBeDefined();
    expect(resultBytes(result)).toBeLessThanOrEqual(limit);
    expect(shown).toMatch(/: 1–200 of 10000\./);
    expect(convertThreads().busy).toBe(0);
  });

  it('pages long links by bytes, each page under the output limit, and every link comes once', async () => {
    const limit = 16 * 1024;
    fx = await start(limit);
    const pad = `/${'x'.repeat(3_000)}`;
    fx.server.route('/long', text(manyLinks(12, pad)));
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const { result } = await fx.call('fetch_links', {
        url: fx.url('/long'),
        ...(cursor ? { cursor } : {}),
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(resultBytes(result)).toBeLessThanOrEqual(limit);
      // Paged by the tool, not cut by core's output limit.
      expect(JSON.stringify(result.content)).not.toMatch(/Ask for less/);
      const out = result.structuredContent as Links;
      expect(out.total).toBe(12);
      expect(out.links.length).toBeGreaterThan(0);
      seen.push(...out.links.map((link) => link.url));
      cursor = out.nextCursor;
      calls++;
    } while (cursor && calls < 20);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => fx.url(`/p/${i}${pad}`)));
    expect(calls).toBeGreaterThan(1);
    expect(fx.server.hits('/long')).toBe(1);
  });
});
