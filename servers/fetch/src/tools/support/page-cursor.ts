/**
 * The fetch tool's cursor: an opaque, signed alternative to `start_index` that also keeps the
 * `max_length` and `raw` of the call that made it, so the next page is cut the same way. It names
 * its URL by digest (a URL may be 8 KiB long; a cursor must stay small) and is refused for any
 * other URL.
 */
import { createHash } from 'node:crypto';
import { UserError } from '@mcpkit/core/errors';
import type { CursorCodec, JsonValue } from '@mcpkit/core/pagination';

/** Where the next page of one URL starts, and how it is cut. */
export interface PagePosition {
  [key: string]: JsonValue;
  /** Digest of the normalised URL. */
  u: string;
  /** start_index of the next page. */
  s: number;
  /** max_length. */
  m: number;
  /** raw. */
  r: boolean;
}

const LIST = 'fetch';

function urlDigest(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

function isPosition(value: JsonValue): value is PagePosition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { u, s, m, r } = value;
  return (
    typeof u === 'string' &&
    Number.isSafeInteger(s) &&
    (s as number) >= 0 &&
    Number.isSafeInteger(m) &&
    (m as number) >= 1 &&
    typeof r === 'boolean'
  );
}

/** The cursor for the page of `url` starting at `startIndex`. */
export function encodePageCursor(
  codec: CursorCodec,
  url: string,
  startIndex: number,
  maxLength: number,
  raw: boolean,
): string {
  return codec.encode<PagePosition>(LIST, { u: urlDigest(url), s: startIndex, m: maxLength, r: raw });
}

/**
 * The position in `cursor`, checked to belong to `url`. A forged or foreign cursor is the
 * protocol's invalid-params error; a cursor of another URL is a {@link UserError}.
 */
export function decodePageCursor(codec: CursorCodec, url: string, cursor: string): PagePosition {
  const position = codec.decode(LIST, cursor, isPosition);
  if (position.u !== urlDigest(url))
    throw new UserError(
      'That cursor belongs to another URL; pass the url the cursor came with, or use start_index.',
    );
  return position;
}
