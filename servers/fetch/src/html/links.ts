/**
 * The links of a page for fetch_links: absolute http(s) URLs, each once, with the text a reader
 * would see. Relative links resolve against the page's `<base>` (load-document.ts); fragments are
 * dropped, so `#top` and `#refs` of one page are one link. Other schemes (javascript:, mailto:,
 * data:) are left out: the fetch tool would refuse them anyway.
 */
import { loadDocument } from './load-document.js';
import { DEFAULT_HTML_LIMITS, type HtmlLimits } from './normalize-html.js';
import { shapeNotes } from './to-markdown.js';

/** One link of a page. */
export interface PageLink {
  url: string;
  /** Visible text (or the label, title or image alt text when there is none), trimmed. */
  text: string;
}

/** The links of a page, in document order, and notes about caps that changed the page. */
export interface PageLinks {
  links: PageLink[];
  notes: string[];
}

/** Characters of link text kept. */
const MAX_TEXT = 200;

function linkText(element: Element): string {
  const visible = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  const fallback =
    element.getAttribute('aria-label') ??
    element.getAttribute('title') ??
    element.querySelector('img[alt]')?.getAttribute('alt') ??
    element.getAttribute('alt') ??
    '';
  const text = visible || fallback.replace(/\s+/g, ' ').trim();
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/**
 * Lists the links of an HTML page fetched from `url`.
 *
 * @example
 * ```ts
 * const { links } = extractLinks('<a href="/b">B</a>', new URL('https://a.example/x'));
 * // [{ url: 'https://a.example/b', text: 'B' }]
 * ```
 */
export function extractLinks(html: string, url: URL, limits: HtmlLimits = DEFAULT_HTML_LIMITS): PageLinks {
  const { document, base, shape } = loadDocument(html, url, limits);
  const byUrl = new Map<string, PageLink>();
  for (const element of document.querySelectorAll('a[href], area[href]')) {
    let target: URL;
    try {
      target = new URL((element.getAttribute('href') ?? '').trim(), base);
    } catch {
      continue;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') continue;
    target.hash = '';
    const text = linkText(element);
    const known = byUrl.get(target.href);
    if (!known) byUrl.set(target.href, { url: target.href, text });
    else if (!known.text && text) known.text = text;
  }
  return { links: [...byUrl.values()], notes: shapeNotes(shape, limits) };
}
