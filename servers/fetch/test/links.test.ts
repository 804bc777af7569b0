/**
 * The links of a page for fetch_links: absolute, deduplicated (fragments dropped), with visible
 * text or a fallback label, http(s) only, resolved against an http(s) `<base>`, and bounded by the
 * same HTML caps as the Markdown conversion.
 */
import { describe, expect, it } from 'vitest';
import { extractLinks, MAX_LIST_CHARS } from '../src/html/links.js';
import { MAX_URL_LENGTH } from '../src/net/url-length.js';

const url = new URL('https://site.example/dir/page.html');

describe('extractLinks', () => {
  it('resolves, deduplicates and labels links in document order', () => {
    const html = `<html><body>
      <a href="/a">First   A</a>
      <a href="b.html#part">B</a>
      <a href="b.html#other">B again</a>
      <a href="https://other.example/x?q=1">Other</a>
      <a href="/a"></a>
      <a href="/icon" aria-label="Icon link"><svg></svg></a>
      <a href="/pic"><img src="p.png" alt="A picture"></a>
      <a href="/empty"></a>
      <map><area href="/area" alt="Area"></map>
    </body></html>`;
    const { links, notes } = extractLinks(html, url);
    expect(links).toEqual([
      { url: 'https://site.example/a', text: 'First A' },
      { url: 'https://site.example/dir/b.html', text: 'B' },
      { url: 'https://other.example/x?q=1', text: 'Other' },
      { url: 'https://site.example/icon', text: 'Icon link' },
      { url: 'https://site.example/pic', text: 'A picture' },
      { url: 'https://site.example/empty', text: '' },
      { url: 'https://site.example/area', text: 'Area' },
    ]);
    expect(notes).toEqual([]);
  });

  it('keeps a later text for a link first seen without one', () => {
    const { links } = extractLinks('<a href="/x"></a><a href="/x">Named</a>', url);
    expect(links).toEqual([{ url: 'https://site.example/x', text: 'Named' }]);
  });

  it('leaves out other schemes and unparsable URLs', () => {
    const html = `<a href="javascript:alert(1)">js</a><a href="mailto:a@b.example">mail</a>
      <a href="data:text/html,x">data</a><a href="http://[::1">bad</a><a href="ftp://f.example/">ftp</a>
      <a href="  /trimmed  ">ok</a>`;
    expect(extractLinks(html, url).links).toEqual([{ url: 'https://site.example/trimmed', text: 'ok' }]);
  });

  it('uses an http(s) base and ignores any other', () => {
    expect(extractLinks('<base href="https://cdn.example/root/"><a href="x">x</a>', url).links[0]?.url).toBe(
      'https://cdn.example/root/x',
    );
    expect(extractLinks('<base href="file:///etc/"><a href="x">x</a>', url).links[0]?.url).toBe(
      'https://site.example/dir/x',
    );
  });

  it('lists links to blocked addresses as text only: fetching them runs the guard', () => {
    const { links } = extractLinks('<a href="http://169.254.169.254/latest/">meta</a>', url);
    expect(links).toEqual([{ url: 'http://169.254.169.254/latest/', text: 'meta' }]);
  });

  it('caps long link text', () => {
    const { links } = extractLinks(`<a href="/long">${'word '.repeat(100)}</a>`, url);
    expect(links[0]?.text.length).toBe(200);
    expect(links[0]?.text.endsWith('…')).toBe(true);
  });

  it('leaves out links longer than fetch accepts', () => {
    const long = `https://site.example/${'a'.repeat(MAX_URL_LENGTH)}/`;
    const html = `<base href="${long}"><a href="x">too long</a><a href="https://site.example/short">short</a>`;
    expect(extractLinks(html, url).links).toEqual([{ url: 'https://site.example/short', text: 'short' }]);
  });

  // Short relative links under a long base: the page is small, the list it resolves to is not.
  it('bounds the whole list, and says where it stopped', () => {
    const base = `https://site.example/${'b'.repeat(7_900)}/`;
    const count = Math.ceil(MAX_LIST_CHARS / base.length) + 100;
    const anchors = Array.from({ length: count }, (_, i) => `<a href="?${i}">${i}</a>`).join('');
    const { links, notes } = extractLinks(`<base href="${base}">${anchors}`, url);
    const chars = links.reduce((sum, link) => sum + link.url.length + link.text.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_LIST_CHARS);
    expect(links.length).toBeGreaterThan(count - 200);
    expect(links.length).toBeLessThan(count);
    expect(links.at(-1)?.url).toBe(`${base}?${links.length - 1}`);
    expect(notes).toContain(
      `Only the first ${links.length} links are listed: the page's links pass ${MAX_LIST_CHARS} characters of addresses and text.`,
    );
  });

  // The notes prove the caps acted (no clock: a loaded machine varies); a page they missed would
  // overflow the stack or run past the generous test timeout.
  it('stays cheap on hostile pages and says what the caps changed', { timeout: 30_000 }, () => {
    const deep = `${'<div>'.repeat(300_000)}<a href="/deep">deep</a>`;
    const { links, notes } = extractLinks(deep, url);
    expect(links).toEqual([{ url: 'https://site.example/deep', text: 'deep' }]);
    expect(notes.join(' ')).toMatch(/flattened/);
    const many = Array.from({ length: 5_000 }, (_, i) => `<a href="/l${i}">${i}</a>`).join('');
    const capped = extractLinks(many, url, {
      maxChars: 1e6,
      maxElements: 1_000,
      maxDepth: 20,
      maxListDepth: 8,
      maxCost: 1e6,
    });
    expect(capped.links).toHaveLength(1_000);
    expect(capped.notes.join(' ')).toMatch(/4000 elements beyond/);
  });
});
