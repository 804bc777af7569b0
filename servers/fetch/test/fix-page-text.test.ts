/**
 * One page-text module for the tools, the cache resources and the prompts: the Markdown made
 * from a cached body is stored with that body only (never on an entry another fetch replaced
 * meanwhile, never for raw content), raw and non-HTML content carry their own media type, and a
 * page reads the same through the fetch tool, a resource read and the fetch prompt: the same
 * text inside the same untrusted-content fence.
 */
import { textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../src/cache/page-cache.js';
import { pageText } from '../src/content/page-text.js';
import { fenceUntrusted } from '../src/content/untrusted.js';
import { cacheUri } from '../src/resources/cache-uri.js';
import { testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';
import { ERAS, fenced, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
}

let server: LocalServer;
let version = 1;
beforeAll(async () => {
  server = await startServer({
    '/doc': (req, res) =>
      text(page(`Doc ${version}`, `Version ${version} of the document, long enough to read.`))(req, res),
    '/plain': text('just text\n', 'text/plain; charset=utf-8'),
  });
});
afterAll(() => server.close());

function setup() {
  const client = testClient({ dns: { 'site.test': ['127.0.0.1'] }, allowHosts: ['site.test'] });
  // Every fetch asks the server again, so a second fetch replaces the entry.
  const pages = new PageCache({ freshForMs: 0 });
  return { client, pages, url: (path: string) => server.url(path, 'site.test') };
}

describe('pageText', () => {
  it('converts HTML to Markdown once and stores it with the body it came from', async () => {
    const { client, pages, url } = setup();
    version = 1;
    const { page: cached } = await pages.fetch(client, url('/doc'));
    const first = await pageText(pages, cached);
    expect(first).toMatchObject({ kind: 'markdown', mimeType: 'text/markdown', prefix: '', title: 'Doc 1' });
    expect(first.text).toContain('Version 1 of the document');
    expect(pages.peek(url('/doc'))?.markdown).toBe(first.text);
    // The next read takes the stored Markdown.
    const again = await pageText(pages, pages.peek(url('/doc'))!);
    expect(again).toMatchObject({ text: first.text, kind: 'markdown', title: 'Doc 1' });
    await client.close();
  });

  it('does not store Markdown on an entry another fetch replaced meanwhile', async () => {
    const { client, pages, url } = setup();
    version = 1;
    const { page: old } = await pages.fetch(client, url('/doc'));
    version = 2;
    await pages.fetch(client, url('/doc'));
    const content = await pageText(pages, old);
    expect(content.text).toContain('Version 1');
    // The entry now holds version 2's body; version 1's Markdown must not be stored with it.
    expect(pages.peek(url('/doc'))?.markdown).toBeUndefined();
    expect((await pageText(pages, pages.peek(url('/doc'))!)).text).toContain('Version 2');
    await client.close();
  });

  it('returns raw HTML and non-HTML text with their own type, and stores neither', async () => {
    const { client, pages, url } = setup();
    const { page: html } = await pages.fetch(client, url('/doc'));
    const raw = await pageText(pages, html, { raw: true });
    expect(raw).toMatchObject({ kind: 'raw', mimeType: 'text/html' });
    expect(raw.text).toMatch(/^<!DOCTYPE html>/);
    expect(raw.prefix).toMatch(/cannot be simplified to markdown/);
    expect(pages.peek(url('/doc'))?.markdown).toBeUndefined();
    const { page: plain } = await pages.fetch(client, url('/plain'));
    expect(await pageText(pages, plain)).toMatchObject({
      kind: 'raw',
      mimeType: 'text/plain',
      text: 'just text\n',
    });
    expect(pages.peek(url('/plain'))?.markdown).toBeUndefined();
    await client.close();
  });

  it('stops before converting when the call was cancelled', async () => {
    const { client, pages, url } = setup();
    const { page: cached } = await pages.fetch(client, url('/doc'));
    const controller = new AbortController();
    controller.abort();
    await expect(pageText(pages, cached, { signal: controller.signal })).rejects.toThrow();
    expect(pages.peek(url('/doc'))?.markdown).toBeUndefined();
    await client.close();
  });
});

describe.each(ERAS)('one page, three ways in, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('reads the same through the fetch tool, the cache resource and the fetch prompt', async () => {
    fx = await toolsFixture(era);
    const url = fx.url('/alpha');
    const tool = fenced((await fx.call('fetch', { url, max_length: 100_000 })).text);
    const resource = await fx.session.client.readResource({ uri: cacheUri(url) });
    const fromResource = fenced(String((resource.contents[0] as { text?: string }).text));
    const prompt = await fx.session.client.getPrompt({ name: 'fetch', arguments: { url } });
    const fromPrompt = fenced(textOf({ content: prompt.messages.map((m) => m.content) }));
    expect(tool.body).toContain('Apples grow on the alpha page');
    expect(fromResource).toEqual(tool);
    expect(fromPrompt).toEqual(tool);
    // The fence is the shared one: its tag is made from the text and the page's URL.
    expect(fenceUntrusted(tool.body, url)).toContain(`<${tool.tag}>`);
    // One download served all three.
    expect(fx.server.hits('/alpha')).toBe(1);
  });
});
