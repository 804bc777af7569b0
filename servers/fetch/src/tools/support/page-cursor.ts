/**
 * The fetch tool's cursor: an opaque, signed alternative to `start_index` that also keeps the
 * `max_length` and `raw` of the call that made it, so the next page is cut the same way. It is
 * core's argument-bound cursor, bound to the (normalised) URL, and refused for any other URL.
 */
import { createHash } from 'node:crypto';
import {
  argumentsKey,
  type CursorCodec,
  decodeBoundCursor,
  encodeBoundCursor,
} from '@mcpkit/core/pagination';

/** Where the next page of one URL starts, and how it is cut. */
export interface PagePosition {
  [key: string]: number | boolean;
  /** start_index of the next page. */
  s: number;
  /** max_length. */
  m: number;
  /** raw. */
  r: boolean;
}

const LIST = 'fetch';

/** A short digest naming a (normalised) URL, e.g. in a list name: URLs may be 8 KiB long. */
export function urlDigest(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

/** The cursor for the page of `url` starting at `startIndex`. */
export function encodePageCursor(
  codec: CursorCodec,
  url: string,
  startIndex: number,
  maxLength: number,
  raw: boolean,
): string {
  return encodeBoundCursor<PagePosition>(codec, LIST, argumentsKey(LIST, url), {
    s: startIndex,
    m: maxLength,
    r: raw,
  });
}

/**
 * The position in `cursor`, checked to belong to `url`. A forged or foreign cursor is the
 * protocol's invalid-params error; a cursor of another URL is a `UserError`.
 */
export function decodePageCursor(codec: CursorCodec, url: string, cursor: string): PagePosition {
  return decodeBoundCursor<PagePosition>(
    codec,
    LIST,
    cursor,
    argumentsKey(LIST, url),
    ({ s, m, r }) =>
      Number.isSafeInteger(s) &&
      (s as number) >= 0 &&
      Number.isSafeInteger(m) &&
      (m as number) >= 1 &&
      typeof r === 'boolean',
    'That cursor belongs to another URL; pass the url the cursor came with, or use start_index.',
  );
}
