/**
 * The links of a page for fetch_links and research: absolute http(s) URLs, each once, with the
 * text a reader would see. Relative links resolve against the page's `<base>` (load-document.ts);
 * fragments are dropped, so `#top` and `#refs` of one page are one link. Links fetch would refuse
 * anyway are left out: other schemes (javascript:, mailto:, data:) and URLs over its length cap.
 *
 * This runs in the conversion worker (convert-page.ts `listLinks`), under the same deadline, heap
 * and HTML caps as the Markdown conversion, and its answer is bounded too
 * ({@link MAX_LIST_CHARS}): a page of short relative links under a long base URL must not hand
 * the server's thread hundreds of megabytes to copy.
 */
import { UserError } from '@mcpkit/core/errors';
import { shownMediaType, shownUrl } from '../content/shown.js';
import { MAX_URL_LENGTH } from '../net/url-length.js';
import { decodePage } from './html-type.js';
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

/**
 * Characters of URLs and text listed for one page, in all. A long article's links come to a few
 * hundred thousand; the element cap alone would let 60 000 links of 8 KB URLs through.
 */
export const MAX_LIST_CHARS = 4_000_000;

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

/** The absolute URL a link points to, or `undefined` for one fetch would refuse. */
function target(href: string, base: URL): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  return url.href.length > MAX_URL_LENGTH ? undefined : url.href;
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
  const notes = shapeNotes(shape, limits);
  let chars = 0;
  for (const element of document.querySelectorAll('a[href], area[href]')) {
    const href = target(element.getAttribute('href') ?? '', base);
    if (href === undefined) continue;
    const text = linkText(element);
    const known = byUrl.get(href);
    if (known) {
      if (!known.text && text) known.text = text;
      continue;
    }
    chars += href.length + text.length;
    if (chars > MAX_LIST_CHARS) {
      notes.push(
        `Only the first ${byUrl.size} links are listed: the page's links pass ${MAX_LIST_CHARS} characters of addresses and text.`,
      );
      break;
    }
    byUrl.set(href, { url: href, text });
  }
  return { links: [...byUrl.values()], notes };
}

/**
 * The links of a fetched body, optionally only those on the origin of `url` (the URL that
 * answered, which is what relative links resolve against). Throws a {@link UserError} for a body
 * that is not HTML (html-type.ts decides, as it does for the fetch tool).
 *
 * @example
 * ```ts
 * const { links } = pageLinks(page.body, page.contentType, new URL(page.finalUrl), { sameOrigin: true });
 * ```
 */
export function pageLinks(
  body: Uint8Array,
  contentType: string,
  url: URL,
  options: { sameOrigin?: boolean; limits?: HtmlLimits } = {},
): PageLinks {
  const { text, html } = decodePage(body, contentType);
  if (!html)
    throw new UserError(
      `${shownUrl(url.href)} is ${shownMediaType(contentType) ?? 'of an unknown type'}, not an HTML page, so it has no links; read it with fetch instead.`,
    );
  const found = extractLinks(text, url, options.limits);
  if (!options.sameOrigin) return found;
  return { ...found, links: found.links.filter((link) => new URL(link.url).origin === url.origin) };
}
