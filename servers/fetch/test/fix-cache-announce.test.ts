/**
 * Storing a page announces it exactly once, whatever stored it: the page cache dispatches one
 * 'stored' event per change of an entry, and the cache resources turn it into one
 * resources/updated for its URI and one resources/list_changed. A tool, a prompt and a page read
 * again from the cache add nothing of their own. Both eras.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORED } from '../src/cache/page-cache.js';
import { cacheUri } from '../src/resources/cache-uri.js';
import { ERAS, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

describe.each(ERAS)('announcing a stored page, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it('announces each page once, from the cache itself', async () => {
    fx = await toolsFixture(era);
    const stored: string[] = [];
    fx.app.context.pages.addEventListener(STORED, (event) =>
      stored.push((event as CustomEvent<string>).detail),
    );
    const updated = vi.spyOn(fx.app.hub, 'resourceUpdated');
    const listed = vi.spyOn(fx.app.hub, 'listChanged');
    const alpha = fx.url('/alpha');
    const beta = fx.url('/beta');

    // A tool stores a page: one event, one update of its URI, one list change.
    expect((await fx.call('fetch', { url: alpha })).result.isError).toBeFalsy();
    expect(stored).toEqual([alpha]);
    expect(updated.mock.calls).toEqual([[cacheUri(alpha)]]);
    expect(listed.mock.calls).toEqual([['resources']]);

    // The same page again, through other tools: served from the cache, nothing more announced.
    await fx.call('fetch_links', { url: alpha });
    await fx.call('fetch', { url: alpha, raw: true });
    // A prompt stores another page: once more, for that page only.
    const prompt = await fx.session.client.getPrompt({ name: 'fetch', arguments: { url: beta } });
    expect(JSON.stringify(prompt.messages)).toContain('Bananas');
    expect(stored).toEqual([alpha, beta]);
    expect(updated.mock.calls).toEqual([[cacheUri(alpha)], [cacheUri(beta)]]);
    expect(listed.mock.calls).toEqual([['resources'], ['resources']]);
    expect(fx.server.hits('/alpha')).toBe(1);
  });
});
