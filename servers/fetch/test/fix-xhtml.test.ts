/**
 * One rule for which pages are HTML (html-type.ts), used by fetch and fetch_links alike: an XHTML
 * page (application/xhtml+xml, whose "<html" comes after an XML declaration and a long DOCTYPE)
 * is converted to Markdown by fetch and has its links listed by fetch_links; the same bytes served
 * as application/xml are neither, by both tools. Pages come from the test's own 127.0.0.1 server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodePage } from '../src/html/html-type.js';
import { text } from './support/local-server.js';
import { ERAS, expectSentence, fenced, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

/** An XHTML 1.0 page as such sites write it: "<html" is well past the first 100 characters. */
const XHTML = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>Quinces</title></head>
<body><article><h1>Quinces</h1>
<p>Quinces are hard, fragrant fruit that are cooked before they are eaten, often into a paste.
They grow on small trees. <a href="/alpha">Alpha page</a> and <a href="/beta">Beta page</a> say more.</p>
</article></body></html>`;

type Links = { total: number; links: { url: string; text: string }[] };

describe('which bodies are HTML', () => {
  const bytes = new TextEncoder().encode(XHTML);
  it.each([
    ['application/xhtml+xml; charset=utf-8', true],
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['', true],
    ['application/xml', false],
    ['text/plain', false],
    ['text/x-html-like', false],
  ])('%j is HTML: %s', (type, html) => {
    expect(XHTML.slice(0, 100)).not.toContain('<html');
    expect(decodePage(bytes, type)).toEqual({ text: XHTML, html });
  });

  it('still takes a body that starts like HTML as HTML, whatever its type says (the official rule)', () => {
    expect(decodePage(new TextEncoder().encode('<html><p>x</p></html>'), 'text/plain').html).toBe(true);
  });
});

describe.each(ERAS)('an XHTML page, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  const serve = async () => {
    fx = await toolsFixture(era);
    fx.server.route('/xhtml', text(XHTML, 'application/xhtml+xml; charset=utf-8'));
    fx.server.route('/xml', text(XHTML, 'application/xml'));
  };

  it('is Markdown for fetch and has links for fetch_links', async () => {
    await serve();
    const url = fx.url('/xhtml');
    const page = (await fx.call('fetch', { url })).text;
    expect(page.startsWith(`Contents of ${url}:\n<untrusted-web-content-`)).toBe(true);
    const { body } = fenced(page);
    expect(body).toContain('Quinces are hard, fragrant fruit');
    expect(body).toContain(`[Alpha page](${fx.url('/alpha')})`);
    expect(body).not.toContain('<p>');

    const { result } = await fx.call('fetch_links', { url });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as Links;
    expect(out.links).toEqual([
      { url: fx.url('/alpha'), text: 'Alpha page' },
      { url: fx.url('/beta'), text: 'Beta page' },
    ]);
    // Both tools read the one cached copy.
    expect(fx.server.hits('/xhtml')).toBe(1);
  });

  it('served as application/xml, is raw text for fetch and has no links for fetch_links', async () => {
    await serve();
    const url = fx.url('/xml');
    const page = (await fx.call('fetch', { url })).text;
    expect(page.startsWith('Content type application/xml cannot be simplified to markdown')).toBe(true);
    expect(fenced(page).body).toBe(XHTML);
    expectSentence(
      (await fx.call('fetch_links', { url })).result,
      /is application\/xml, not an HTML page, so it has no links; read it with fetch instead\./,
    );
  });
});
