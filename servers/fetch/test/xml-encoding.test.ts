/**
 * The encoding an XML document names in its XML declaration (`<?xml version="1.0"
 * encoding="windows-1252"?>`): honoured for XHTML and the other XML types the server decodes as
 * text, when the declaration is at the very first byte, after a byte-order mark and the HTTP
 * charset (both win over it). Pages in windows-1252 and iso-8859-2 come from the test's own
 * 127.0.0.1 server, in both eras.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodePage } from '../src/html/html-type.js';
import { text } from './support/local-server.js';
import { ERAS, fenced, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

/** The bytes of the letters these tests use outside ASCII, per encoding. */
const CODES: Record<string, Record<string, number>> = {
  'windows-1252': { é: 0xe9, è: 0xe8, à: 0xe0, '€': 0x80 },
  'iso-8859-2': { ż: 0xbf, ó: 0xf3, ł: 0xb3, ć: 0xe6, ę: 0xea, ś: 0xb6, ą: 0xb1, ź: 0xbc, ń: 0xf1 },
  'utf-8': {},
};

/** `text` in a single-byte encoding (ASCII as it is, the rest from {@link CODES}), or UTF-8. */
function encode(source: string, encoding: keyof typeof CODES): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(source);
  const codes = CODES[encoding] ?? {};
  return Uint8Array.from([...source], (char) => {
    const code = char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : codes[char];
    if (code === undefined) throw new Error(`${char} is not in this test's ${encoding} table`);
    return code;
  });
}

const FRENCH = 'Café crème costs €5';
const POLISH = 'Zażółć gęślą jaźń';

/** An XHTML page whose only word on its encoding is the XML declaration (`declared`). */
function xhtml(declared: string, words: string, link = 'Menu'): string {
  return `<?xml version="1.0" encoding="${declared}"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head><title>Words</title></head>
<body><article><h1>Words</h1>
<p>${words}, says the page, which is long enough to be read as an article by the converter.
It has a link too: <a href="/alpha">${link}</a>.</p>
</article></body></html>`;
}

function feed(declared: string, words: string): string {
  return `<?xml version='1.0' encoding='${declared}' standalone='yes'?>\n<rss version="2.0"><channel><title>${words}</title></channel></rss>`;
}

describe('the XML declaration decides the encoding', () => {
  it.each([
    ['windows-1252', FRENCH],
    ['iso-8859-2', POLISH],
    ['ISO-8859-2', POLISH],
  ] as const)('of an XHTML page in %s', (declared, words) => {
    const body = encode(xhtml(declared, words), declared.toLowerCase());
    const page = decodePage(body, 'application/xhtml+xml');
    expect(page.html).toBe(true);
    expect(page.text).toContain(`<p>${words}, says the page`);
  });

  it.each(['text/xml', 'application/xml', 'application/rss+xml', 'application/atom+xml', 'image/svg+xml'])(
    'of %s',
    (type) => {
      expect(decodePage(encode(feed('iso-8859-2', POLISH), 'iso-8859-2'), type).text).toContain(
        `<title>${POLISH}</title>`,
      );
    },
  );

  it('after the HTTP charset, which wins', () => {
    const body = encode(xhtml('windows-1252', POLISH), 'iso-8859-2');
    expect(decodePage(body, 'application/xhtml+xml; charset=iso-8859-2').text).toContain(POLISH);
  });

  it('after a byte-order mark, which wins', () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(xhtml('windows-1252', POLISH), 'utf-8')]);
    expect(decodePage(body, 'application/xhtml+xml').text).toContain(POLISH);
  });

  it('over a <meta charset>, which an XML document does not go by', () => {
    const source = xhtml('iso-8859-2', POLISH).replace('<head>', '<head><meta charset="windows-1252"/>');
    expect(decodePage(encode(source, 'iso-8859-2'), 'application/xhtml+xml').text).toContain(POLISH);
  });

  it.each([
    ['anything comes before it', (page: string) => `\n${page}`],
    ['it is not at the start', (page: string) => `<!-- note -->${page}`],
    ['it names no version first', (page: string) => page.replace('version="1.0" ', '')],
    ['it is never closed', (page: string) => page.replace('?>', '')],
    ['it names UTF-16 in bytes that are not', (page: string) => page.replace('iso-8859-2', 'utf-16')],
    ['it names no encoding a decoder knows', (page: string) => page.replace('iso-8859-2', 'x-no-such')],
  ])('not when %s: UTF-8 then', (_why, change) => {
    const { text } = decodePage(
      encode(change(xhtml('iso-8859-2', POLISH)), 'iso-8859-2'),
      'application/xhtml+xml',
    );
    expect(text).not.toContain(POLISH);
    expect(text).toContain('Za\ufffd');
  });

  it('not for a type that is not XML', () => {
    const body = encode(feed('iso-8859-2', POLISH), 'iso-8859-2');
    expect(decodePage(body, 'text/plain').text).not.toContain(POLISH);
  });
});

describe.each(ERAS)('pages in a declared encoding, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  const serve = async () => {
    fx = await toolsFixture(era);
    const french = encode(xhtml('windows-1252', FRENCH, 'Menu à la carte'), 'windows-1252');
    fx.server.route('/french', text(french, 'application/xhtml+xml'));
    fx.server.route(
      '/polish',
      text(encode(xhtml('iso-8859-2', POLISH), 'iso-8859-2'), 'application/xhtml+xml'),
    );
    fx.server.route('/feed', text(encode(feed('iso-8859-2', POLISH), 'iso-8859-2'), 'application/rss+xml'));
  };

  it('are read in it by fetch, as Markdown for XHTML and as text for a feed', async () => {
    await serve();
    expect(fenced((await fx.call('fetch', { url: fx.url('/french') })).text).body).toContain(
      `${FRENCH}, says the page`,
    );
    expect(fenced((await fx.call('fetch', { url: fx.url('/polish') })).text).body).toContain(
      `${POLISH}, says the page`,
    );
    const feedText = (await fx.call('fetch', { url: fx.url('/feed') })).text;
    expect(feedText.startsWith('Content type application/rss+xml cannot be simplified')).toBe(true);
    expect(fenced(feedText).body).toContain(`<title>${POLISH}</title>`);
  });

  it('give fetch_links the link text in it', async () => {
    await serve();
    const { result } = await fx.call('fetch_links', { url: fx.url('/french') });
    expect(result.structuredContent).toMatchObject({
      links: [{ url: fx.url('/alpha'), text: 'Menu à la carte' }],
    });
  });
});
