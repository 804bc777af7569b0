/**
 * The links of a loaded page, for fetch_links and the research loop: only an HTML page has links
 * (anything else is refused with a sentence), and "same origin" means the origin of the URL that
 * answered, which is what the page's relative links resolve against.
 */
import { UserError } from '@mcpkit/core/errors';
import { mediaType, shownMediaType } from '../../content/shown.js';
import { decodeText } from '../../html/charset.js';
import { extractLinks, type PageLinks } from '../../html/links.js';
import type { LoadedPage } from './read-page.js';

/** True for what the fetch tool would convert as HTML: the official rule. */
function isHtml(type: string, text: string): boolean {
  return type === '' || type.includes('html') || text.slice(0, 100).includes('<html');
}

/**
 * The links of `loaded`, optionally only those on its own origin.
 *
 * @example
 * ```ts
 * const { links } = pageLinks(await loadPage(call, url), { sameOrigin: true });
 * ```
 */
export function pageLinks(loaded: LoadedPage, options: { sameOrigin?: boolean } = {}): PageLinks {
  const { page } = loaded;
  const type = mediaType(page.contentType);
  const text = decodeText(page.body, page.contentType, type === '' || type.includes('html'));
  if (!isHtml(type, text))
    throw new UserError(
      `${loaded.url} is ${shownMediaType(page.contentType) ?? 'of an unknown type'}, not an HTML page, so it has no links; read it with fetch instead.`,
    );
  const base = new URL(page.finalUrl);
  const found = extractLinks(text, base);
  if (!options.sameOrigin) return found;
  return { ...found, links: found.links.filter((link) => new URL(link.url).origin === base.origin) };
}
