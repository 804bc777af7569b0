/**
 * fetch_links in both eras: the links of a page (absolute, each once, no fragments, no mailto:),
 * the same_origin filter, pages behind core's signed cursors bound to the URL and the filter, the
 * page cache shared with fetch, and a sentence for a page that is not HTML.
 */
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ERAS, expectSentence, fenced, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

type Links = { url: string; total: number; links: { url: string; text: string }[]; nextCursor?: string };

describe.each(ERAS)('fetch_links, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('lists each link once, absolute, without fragments or other schemes', async () => {
    fx = await toolsFixture(era);
    const { result, text } = await fx.call('fetch_links', { url: fx.url('/index') });
    const out = result.structuredContent as Links;
    expect(out.url).toBe(fx.url('/index'));
    expect(out.links).toEqual([
      { url: fx.url('/alpha'), text: 'Alpha page' },
      { url: fx.url('/beta'), text: 'Beta page' },
      { url: fx.url('/secret', 'other.test'), text: 'Secret elsewhere' },
      { url: fx.url('/redirect-away'), text: 'Moved' },
    ]);
    expect(out.total).toBe(4);
    expect(out.nextCursor).toBeUndefined();
    expect(fenced(text).body).toContain(`- ${fx.url('/alpha')} — Alpha page`);
    expect(text).toMatch(/^Links of http:\/\/site\.test:\d+\/index: 1–4 of 4\./);
  });

  it('keeps only links to the same site with same_origin', async () => {
    fx = await toolsFixture(era);
    const { result } = await fx.call('fetch_links', { url: fx.url('/index'), same_origin: true });
    const out = result.structuredContent as Links;
    expect(out.links.map((link) => link.url)).toEqual([
      fx.url('/alpha'),
      fx.url('/beta'),
      fx.url('/redirect-away'),
    ]);
  });

  it('pages with a cursor bound to the URL and the filter, downloading the page once', async () => {
    fx = await toolsFixture(era, { app: { resultPageSize: 3 } });
    const url = fx.url('/index');
    const first = (await fx.call('fetch_links', { url })).result.structuredContent as Links;
    expect(first.links).toHaveLength(3);
    expect(first.nextCursor).toBeDefined();
    const second = await fx.call('fetch_links', { url, cursor: first.nextCursor });
    const rest = second.result.structuredContent as Links;
    expect(rest.links.map((link) => link.url)).toEqual([fx.url('/redirect-away')]);
    expect(rest.nextCursor).toBeUndefined();
    expect(second.text).toContain('4–4 of 4');
    expect(fx.server.hits('/index')).toBe(1);

    for (const wrong of [
      { url: fx.url('/alpha'), cursor: first.nextCursor },
      { url, same_origin: true, cursor: first.nextCursor },
    ]) {
      const refused = (await fx.call('fetch_links', wrong)).result;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/cursor/i);
    }
  });

  it('shares the cache with fetch', async () => {
    fx = await toolsFixture(era);
    await fx.call('fetch', { url: fx.url('/index') });
    await fx.call('fetch_links', { url: fx.url('/index') });
    expect(fx.server.hits('/index')).toBe(1);
  });

  it('says a page that is not HTML has no links, and honours robots.txt', async () => {
    fx = await toolsFixture(era);
    expectSentence(
      (await fx.call('fetch_links', { url: fx.url('/plain') })).result,
      /is text\/plain, not an HTML page, so it has no links; read it with fetch instead\./,
    );
    expectSentence((await fx.call('fetch_links', { url: fx.url('/private') })).result, /robots\.txt/);
    expect(fx.server.hits('/private')).toBe(0);
    expectSentence(
      (await fx.call('fetch_links', { url: 'file:///etc/passwd' })).result,
      /only http and https/,
    );
  });
});
