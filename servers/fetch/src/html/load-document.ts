/// <reference lib="dom" />
/**
 * Parses a fetched page into a linkedom document, always through normalize-html.ts, so the DOM
 * only ever holds a tree of bounded size and depth. The document gets an absolute `<base>`: the
 * page's own base resolved against its URL (when it is http or https), else the URL itself, so
 * Readability and the link list resolve relative links the way a browser would.
 */
// Typed by linkedom.d.ts beside this file (see tsconfig `paths`), bundled from the real package.
import { parseHTML } from 'linkedom';
import {
  DEFAULT_HTML_LIMITS,
  type HtmlLimits,
  MIN_DEPTH,
  type NormalizedHtml,
  normalizeHtml,
} from './normalize-html.js';

/** A parsed page and what normalising it changed. */
export interface LoadedDocument {
  document: Document;
  /** The URL relative links resolve against. */
  base: URL;
  /** What normalize-html.ts reported (caps hit, meta refresh). */
  shape: Omit<NormalizedHtml, 'html'>;
}

/** The base URL of a page: its `<base href>` when that is a valid http(s) URL, else the page URL. */
export function baseUrl(pageUrl: URL, baseHref: string | undefined): URL {
  if (baseHref === undefined) return pageUrl;
  try {
    const base = new URL(baseHref.trim(), pageUrl);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : pageUrl;
  } catch {
    return pageUrl;
  }
}

/**
 * Normalises and parses `html` fetched from `url`.
 *
 * @example
 * ```ts
 * const { document, base } = loadDocument(html, new URL('https://example.com/a/'));
 * ```
 */
export function loadDocument(
  html: string,
  url: URL,
  limits: HtmlLimits = DEFAULT_HTML_LIMITS,
): LoadedDocument {
  let normalizedPage = normalizeHtml(html, limits);
  // Over the cost budget: flatten harder (each pass is linear, at most four), then accept the cut.
  for (let depth = limits.maxDepth >> 1; normalizedPage.cut === 'cost' && depth >= MIN_DEPTH; depth >>= 1)
    normalizedPage = normalizeHtml(html, { ...limits, maxDepth: depth });
  const { html: normalized, ...shape } = normalizedPage;
  const base = baseUrl(url, shape.baseHref);
  const { document } = parseHTML(normalized);
  // The parser makes a text node per entity; merged, Readability and Turndown walk far fewer nodes.
  document.body?.normalize();
  const baseElement = document.createElement('base');
  baseElement.setAttribute('href', base.href);
  (document.head ?? document.documentElement).prepend(baseElement);
  return { document, base, shape };
}
