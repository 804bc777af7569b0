/**
 * Extraction: HTML to Markdown (Readability, then Turndown) with the official rules for what is
 * HTML, raw and binary content, charsets, meta refresh (reported, never followed), and the caps
 * that keep hostile pages cheap: 10⁶ nested divs, a million elements, unclosed tags, lists
 * nested without end. Also a ~1 MB article, which the cost budget lets through whole, and cuts
 * when the budget is smaller than what it counted for the page.
 *
 * Work is bounded by the caps and the cost estimate of normalize-html.ts, checked on the
 * normalised page, and by the notes saying what they cut. No clock is asserted (CPU time too
 * varies with the machine): a page the cost model misjudges so badly that it takes minutes runs
 * past the generous test timeout instead.
 */
import { UserError } from '@mcpkit/core/errors';
import TurndownService from 'turndown';
import { describe, expect, it } from 'vitest';
import { listItemRule } from '../src/html/list-items.js';
import { loadDocument } from '../src/html/load-document.js';
import { resolveMetaRefresh } from '../src/html/meta-refresh.js';
import { DEFAULT_HTML_LIMITS, normalizeHtml } from '../src/html/normalize-html.js';
import { pageContent } from '../src/html/page-content.js';
import { htmlToMarkdown } from '../src/html/to-markdown.js';
import { articlePage } from './support/article.js';

const url = new URL('https://news.example/2024/post.html');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('HTML to Markdown', () => {
  it('keeps the article, drops the chrome, resolves links and uses ATX headings', () => {
    const page = htmlToMarkdown(articlePage(20_000), url);
    expect(page.simplified).toBe(true);
    expect(page.title).toBe('Guarded fetching | Example');
    expect(page.markdown).toMatch(/^## Section 1$/m);
    expect(page.markdown).toContain('[Reference 1](https://news.example/ref/1)');
    expect(page.markdown).toContain('```\nconst answer1');
    expect(page.markdown).not.toContain('Nav 3');
    expect(page.markdown).not.toContain('analytics');
    expect(page.notes).toEqual([]);
  });

  it('converts the whole body when Readability finds no article', () => {
    const page = htmlToMarkdown('<html><body><h1>Tiny</h1><p>Short.</p></body></html>', url);
    expect(page.markdown).toContain('Tiny');
    expect(page.markdown).toContain('Short.');
  });

  it('reports a meta refresh and never follows it', () => {
    const html = `<html><head><meta http-equiv="refresh" content="0; url=http://127.0.0.1/admin"></head><body><p>Moved.</p></body></html>`;
    const page = htmlToMarkdown(html, url);
    expect(page.metaRefresh).toBe('http://127.0.0.1/admin');
    expect(page.markdown).not.toContain('127.0.0.1');
    expect(resolveMetaRefresh("5;URL='next.html'", url)).toBe('https://news.example/2024/next.html');
    expect(resolveMetaRefresh('10', url)).toBeUndefined();
    expect(resolveMetaRefresh('0; url=javascript:alert(1)', url)).toBeUndefined();
  });

  it('honours the page base, but only an http(s) one', () => {
    const withBase = htmlToMarkdown('<base href="https://cdn.example/d/"><p><a href="x">x</a></p>', url);
    expect(withBase.markdown).toContain('(https://cdn.example/d/x)');
    const jsBase = htmlToMarkdown('<base href="javascript:alert(1)//"><p><a href="x">x</a></p>', url);
    expect(jsBase.markdown).toContain('(https://news.example/2024/x)');
  });
});

describe('hostile HTML stays cheap', () => {
  it('flattens 10⁶ nested divs instead of hanging or overflowing the stack', { timeout: 60_000 }, () => {
    const page = htmlToMarkdown(
      `<html><body><p>top text</p>${'<div>'.repeat(1_000_000)}<p>deep</p></body></html>`,
      url,
    );
    expect(page.markdown).toContain('top text');
    expect(page.notes.join(' ')).toMatch(/flattened/);
    expect(page.notes.join(' ')).toMatch(/cut to its first/);
  });

  it('keeps the text under 500 000 nested divs', () => {
    const page = htmlToMarkdown(`${'<div>'.repeat(500_000)}<p>deep text</p>`, url);
    expect(page.markdown).toContain('deep text');
    expect(page.notes).toEqual(['499905 elements nested deeper than 96 levels were flattened.']);
  });

  it('drops elements past the cap and keeps their text', () => {
    const html = `<body>${'<span>w</span>'.repeat(5_000)}</body>`;
    const page = htmlToMarkdown(html, url, {
      maxChars: 1_000_000,
      maxElements: 1_000,
      maxDepth: 50,
      maxListDepth: 8,
      maxCost: 1e6,
    });
    expect(page.notes.join(' ')).toMatch(/4000 elements beyond the first 1000/);
    expect(page.markdown.replace(/\s/g, '').length).toBeGreaterThanOrEqual(5_000);
  });

  it('cuts input past the character cap', () => {
    const page = htmlToMarkdown(`<p>${'a '.repeat(50_000)}</p>`, url, {
      maxChars: 1_000,
      maxElements: 100,
      maxDepth: 10,
      maxListDepth: 8,
      maxCost: 1e4,
    });
    expect(page.notes.join(' ')).toMatch(/first 1000 characters/);
  });

  it.each([
    ['unclosed tags', '<b>'.repeat(200_000)],
    ['unclosed quote', `<a title="${'x'.repeat(500_000)}`],
    ['close-tag storm', `${'<div>'.repeat(90)}${'</span>'.repeat(300_000)}`],
    ['comment storm', '<!--'.repeat(200_000)],
    ['script that never ends', `<script>${'<div>'.repeat(200_000)}`],
    ['self-closing script before deep divs', `<script/>${'<div>'.repeat(200_000)}`],
    ['attributes storm', `<div ${'a=1 '.repeat(200_000)}>`],
    ['odd tag names', '<x<y></x<y><a"b><c=d>'.repeat(60_000)],
    ['elements only some parsers call void', '<bgsound><keygen><frame><image>'.repeat(60_000)],
    ['title storm', '<title>t</title><title/>'.repeat(100_000)],
    ['image storm', `<p>${'<img src=x>'.repeat(100_000)}`],
    ['break storm', `<p>${'a<br>'.repeat(200_000)}`],
    ['empty link storm', '<a href=x></a>'.repeat(200_000)],
    ['entity storm under nesting', `${'<section>'.repeat(12)}${'&lt;x'.repeat(500_000)}`],
    ['empty element storm', '<span></span>'.repeat(200_000)],
    ['nested list storm, 256 KB', '<ul><li>a'.repeat(29_000)],
    ['nested list storm, 1 MB', '<ul><li>a'.repeat(116_000)],
    ['nested ordered lists of links', '<ol><li><a href=/x>a</a>'.repeat(40_000)],
    ['list items outside any list', '<li>a'.repeat(200_000)],
    ['items nested in items', '<li><b>a'.repeat(100_000)],
    ['one long ordered list', `<ol>${'<li>a'.repeat(60_000)}`],
  ])(
    'bounds the work for %s',
    (_name, html) => {
      // The shape the DOM gets stays within every cap and the cost budget (one step over at most).
      const { shape } = loadDocument(html, url);
      expect(shape.elements).toBeLessThanOrEqual(DEFAULT_HTML_LIMITS.maxElements);
      expect(shape.depth).toBeLessThanOrEqual(DEFAULT_HTML_LIMITS.maxDepth);
      expect(shape.cost).toBeLessThan(DEFAULT_HTML_LIMITS.maxCost * 1.05);
      // Measured: 1–2.5 s of CPU each on two shared cores. A shape the cost model misjudges (an
      // `<ol>` of 60 000 items once took minutes) runs past this test's generous timeout.
      const page = htmlToMarkdown(html, url);
      expect(typeof page.markdown).toBe('string');
    },
    60_000,
  );

  it('flattens lists nested past the list cap into the deepest list kept, keeping every item', () => {
    const page = htmlToMarkdown(`<main>${'<ul><li>level'.repeat(12)}</main>`, url);
    const lines = page.markdown.split('\n');
    // Eight levels of items, then the deeper items as siblings in the eighth.
    expect(lines).toHaveLength(12);
    expect(lines[7]).toBe(`${' '.repeat(28)}-   level`);
    expect(lines.slice(8).every((line) => line === lines[7])).toBe(true);
    // The four deeper lists were flattened; each deeper item closed the one before it.
    expect(page.notes).toEqual(['4 lists and list items nested more than 8 levels deep were flattened.']);
    const storm = htmlToMarkdown('<ul><li>a'.repeat(8_000), url);
    expect(storm.markdown.match(/- {3}a/g)).toHaveLength(8_000);
    // Markdown grows with the text, not with items times levels (it was 1.4 MB for this page).
    expect(storm.markdown.length).toBeLessThan(8_000 * 40);
  });

  it('keeps lists nested within the cap, and numbers them exactly as the stock converter does', () => {
    const options = { headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' } as const;
    const stock = new TurndownService(options);
    const ours = new TurndownService(options).addRule('listItem', listItemRule);
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => `<li>item ${i} of the list</li>`).join('');
    const pages = [
      `<ol start="4">${items(30)}</ol>`,
      '<ul><li>a<ol><li>b<ul><li>c<ol><li>d</li><li>e<p>one</p><p>two</p></li></ol></li></ul></li><li>f</li></ol></li><li>g</li></ul>',
      '<ol><li>one</li>text<li>two</li><!-- c --><li>three<ol><li>x</li><li>y</li></ol></li></ol>',
      '<ol start="x"><li><p>para</p></li><li>plain</li></ol><menu><li>m</li></menu>',
      `<p>${'<ul><li>level'.repeat(8)}</p>`,
      `<ol>${items(2_000)}</ol>`,
    ];
    for (const html of pages) {
      // The list cap leaves these pages as they were.
      const uncapped = normalizeHtml(html, { ...DEFAULT_HTML_LIMITS, maxListDepth: 1_000 });
      expect(normalizeHtml(html).html).toBe(uncapped.html);
      const { document } = loadDocument(html, url);
      expect(ours.turndown(document.body)).toBe(stock.turndown(document.body));
    }
    expect(htmlToMarkdown(pages[0] as string, url).markdown).toMatch(/^4\. {2}item 0 of the list$/m);
    expect(htmlToMarkdown(pages[5] as string, url).markdown).toMatch(/^2000\. {2}item 1999 of the list$/m);
  });

  it('cuts a page where the conversion budget runs out, and says so', () => {
    const page = htmlToMarkdown(`<p>${'&lt;x'.repeat(600_000)}</p>`, url);
    expect(page.notes.join(' ')).toMatch(/cut after \d+ characters to bound the conversion time/);
    expect(page.markdown.length).toBeGreaterThan(100_000);
  });

  it('re-serialises every kept tag, so the DOM sees only the tree decided here', () => {
    const shape = normalizeHtml(
      '<p>a<p>b<div title="x>y" onclick="evil()">c<img src=i.png></div><script>x<y</script>',
    );
    expect(shape.html).toContain('<p>a</p><p>b</p><div title="x>y">c<img src="i.png"></img></div>');
    expect(shape.html).not.toContain('onclick');
    expect(shape.html).not.toContain('x<y');
  });
});

describe('page content: the official rules', () => {
  it('converts HTML, and returns raw content with the official note otherwise', () => {
    const html = pageContent(bytes('<html><body><p>Hi</p></body></html>'), 'text/html', url);
    expect(html.kind).toBe('markdown');
    expect(html.text).toBe('Hi');
    const json = pageContent(bytes('{"a":1}'), 'application/json', url);
    expect(json.kind).toBe('raw');
    expect(json.prefix).toBe(
      'Content type application/json cannot be simplified to markdown, but here is the raw content:\n',
    );
    expect(json.text).toBe('{"a":1}');
    const forced = pageContent(bytes('<html><p>Hi</p></html>'), 'text/html', url, { raw: true });
    expect(forced.kind).toBe('raw');
    expect(forced.text).toContain('<p>Hi</p>');
    const untyped = pageContent(bytes('<p>No type</p>'), '', url);
    expect(untyped.kind).toBe('markdown');
    const script = pageContent(bytes('let a = 1;'), 'application/x-javascript', url);
    expect(script.kind).toBe('raw');
    const sniffed = pageContent(bytes('<!doctype html><html><p>x</p></html>'), 'text/plain', url);
    expect(sniffed.kind).toBe('markdown');
  });

  it('refuses binary bodies with a sentence for the user', () => {
    expect(() => pageContent(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png', url)).toThrow(UserError);
    expect(() => pageContent(new Uint8Array([1, 0, 2]), 'text/plain', url)).not.toThrow();
    expect(() => pageContent(new Uint8Array([1, 0, 2]), 'application/x-unknown', url)).toThrow(/not text/);
  });

  it('decodes by BOM, charset parameter and meta charset', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    expect(pageContent(latin1, 'text/plain; charset=ISO-8859-1', url).text).toBe('café');
    const meta = new Uint8Array([
      ...bytes('<html><head><meta charset="windows-1252"></head><body><p>'),
      0xe9,
      ...bytes('</p>'),
    ]);
    expect(pageContent(meta, 'text/html', url).text).toBe('é');
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('ok')]);
    expect(pageContent(bom, 'text/plain; charset=latin1', url).text).toBe('ok');
  });
});

// The guard that keeps a large page cheap is the cost estimate of normalize-html.ts, counted before
// any DOM sees the page: shown here by its counter and by what it lets through, not by a clock.
describe('a ~1 MB article and the conversion budget', () => {
  it('goes to the DOM whole, in one pass, its counted cost within the budget', { timeout: 60_000 }, () => {
    const html = articlePage(1_000_000);
    const { shape } = loadDocument(html, url);
    expect(shape.read).toBe(html.length);
    expect(shape.cut).toBeUndefined();
    // One pass at the full depth: the budget did not have to flatten the page again.
    expect(shape.depthLimit).toBe(DEFAULT_HTML_LIMITS.maxDepth);
    expect(shape.dropped + shape.flattened + shape.listsFlattened).toBe(0);
    expect(shape.cost).toBeGreaterThan(0);
    expect(shape.cost).toBeLessThanOrEqual(DEFAULT_HTML_LIMITS.maxCost);
    const page = htmlToMarkdown(html, url);
    expect(page.simplified).toBe(true);
    expect(page.notes).toEqual([]);
    expect(page.markdown.length).toBeGreaterThan(300_000);
  });

  it('is cut where a budget of half its counted cost runs out, and the note says so', {
    timeout: 60_000,
  }, () => {
    const html = articlePage(1_000_000);
    const { shape: whole } = loadDocument(html, url);
    const limits = { ...DEFAULT_HTML_LIMITS, maxCost: Math.floor(whole.cost / 2) };
    const { shape: cut } = loadDocument(html, url, limits);
    expect(cut.cut).toBe('cost');
    expect(cut.read).toBeLessThan(html.length);
    // One step over the budget at most, as for the hostile pages above.
    expect(cut.cost).toBeLessThan(limits.maxCost * 1.05);
    const page = htmlToMarkdown(html, url, limits);
    expect(page.notes.join(' ')).toMatch(/cut after \d+ characters to bound the conversion time/);
  });
});
