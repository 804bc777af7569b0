/**
 * A cached page's title for the resource listing, without converting the page: the title the
 * conversion stored when there is one, else the `<title>` element read from the head of an HTML
 * body. Listing every cached page must stay cheap, and a full conversion of each is not. Either
 * way the title is the page's own words shown outside any fence, so it goes through
 * `shownTitle` (one line, no control characters, capped).
 */
import type { CachedPage } from '../cache/page-cache.js';
import { mediaType, shownTitle } from '../content/shown.js';
import { decodeText } from '../html/charset.js';

/** Bytes of the body searched for `<title>`; it sits in the head. */
const HEAD_BYTES = 32 * 1024;
const TITLE = /<title\b[^>]*>([^<]{1,2000})<\/title\s*>/i;
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (entity, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? entity;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/**
 * The title of `page`, or `undefined` when it has none that can be read cheaply.
 *
 * @example
 * ```ts
 * pageTitle(page); // 'Release notes – Example'
 * ```
 */
export function pageTitle(page: CachedPage): string | undefined {
  if (page.title) return shownTitle(page.title);
  const type = mediaType(page.contentType);
  if (type !== '' && !type.includes('html')) return undefined;
  const head = decodeText(page.body.subarray(0, HEAD_BYTES), page.contentType, true);
  const found = TITLE.exec(head)?.[1];
  return found ? shownTitle(decodeEntities(found)) : undefined;
}
