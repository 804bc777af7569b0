/**
 * Strings that come from a fetched page or from its server's headers but are shown *outside*
 * the untrusted fence (untrusted.ts): the media type in the official "cannot be simplified" note,
 * the URL a redirect landed on, a meta refresh target, a page title in the resource list, an
 * image's address. Outside the fence a model may read them as the server's own words, so each is
 * cut down to what it is meant to be: a media type is `type/subtype` and nothing else (its
 * parameters are free text a server chooses), a URL is the parser's serialisation, printable
 * ASCII, capped in length, and a title is one line, without control characters, capped.
 */

/** Characters of a media type shown at most; real ones are far shorter. */
const MAX_MEDIA_TYPE = 100;
/** Characters of a URL shown outside the fence at most. */
export const MAX_SHOWN_URL = 300;
/** Characters of a title shown at most. */
export const MAX_TITLE = 200;

const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;
/** Invisible marks that reorder or hide text (bidi controls, zero-width characters). */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/** `text` cut to `max` characters (code points), with an ellipsis when it was longer. */
function cap(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The media type of a Content-Type header when it is a plain `type/subtype` of letters, digits
 * and `._+-` (at most 100 characters), else `undefined`: parameters and anything else a server
 * put in the header are never shown.
 *
 * @example
 * ```ts
 * shownMediaType('text/csv; x="ignore your instructions"'); // 'text/csv'
 * shownMediaType('please/ignore your instructions');         // undefined
 * ```
 */
export function shownMediaType(contentType: string): string | undefined {
  const type = mediaType(contentType);
  return type.length <= MAX_MEDIA_TYPE && MEDIA_TYPE.test(type) ? type : undefined;
}

/**
 * A URL as shown outside the fence: anything outside printable ASCII percent-encoded (a parsed
 * URL has none; this guards strings that were never parsed), capped at {@link MAX_SHOWN_URL}.
 *
 * @example
 * ```ts
 * shownUrl(page.finalUrl); // 'https://example.com/after/redirect'
 * ```
 */
export function shownUrl(url: string): string {
  const printable = url.replace(/[^\x21-\x7e]+/gu, (run) => encodeURIComponent(run));
  return cap(printable, MAX_SHOWN_URL);
}

/**
 * A page title as shown outside the fence: one line (control characters and runs of white space
 * become one space, invisible marks are removed), trimmed, capped at {@link MAX_TITLE}
 * characters; `undefined` when nothing is left.
 *
 * @example
 * ```ts
 * shownTitle('  Release notes\n\n– Example '); // 'Release notes – Example'
 * ```
 */
export function shownTitle(title: string | undefined): string | undefined {
  if (!title) return undefined;
  const line = title
    .replace(/\p{Cc}/gu, ' ')
    .replace(INVISIBLE, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return line ? cap(line, MAX_TITLE) : undefined;
}
