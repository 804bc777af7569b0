import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalidCursorError } from './invalid-cursor.js';

/** Any value that survives a JSON round trip unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where a list resumes: a small JSON value chosen by the list's owner, e.g. `{ offset: 40 }` for an
 * array or `{ after: 'src/b.ts', dirStack: ['src'] }` for a filesystem walk.
 */
export type CursorPosition = JsonValue;

/** Narrows a decoded position to the shape the list expects; a `false` makes the cursor invalid. */
export type PositionGuard<T extends CursorPosition> = (value: JsonValue) => value is T;

export interface CursorCodecOptions {
  /** HMAC-SHA256 key, at least 32 bytes. Every process that may receive the cursor needs the same key. */
  key: Uint8Array;
  /** Reject cursors older than this. Without it, cursors never expire. */
  ttlSeconds?: number;
}

export interface CursorCodec {
  /** Mints an opaque cursor for `position` that only `decode(list, …)` with the same list accepts. */
  encode<T extends CursorPosition>(list: string, position: T): string;
  /**
   * Verifies a client's cursor and returns its position, or throws JSON-RPC -32602.
   * Pass `guard` when the position's shape may have changed between releases sharing a key.
   */
  decode<T extends CursorPosition = CursorPosition>(
    list: string,
    cursor: string,
    guard?: PositionGuard<T>,
  ): T;
}

/**
 * Cursors larger than this are refused unread: ours are a few hundred bytes, so a bigger one is
 * either forged or a position that should have been kept server-side.
 */
export const MAX_CURSOR_LENGTH = 4096;

const VERSION = 'v1';
const MIN_KEY_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

interface Envelope {
  p: JsonValue;
  /** Expiry, epoch milliseconds. */
  x?: number;
}

/**
 * Creates the codec for opaque, tamper-evident pagination cursors.
 *
 * A cursor is `v1.<base64url JSON>.<base64url HMAC>`. The MAC covers the version, the list name and
 * the payload, so a cursor cannot be edited, and one minted for `tools/list` (or for one tool's
 * results) is refused by every other list. The payload is signed, not encrypted: put nothing in a
 * position that the client must not read.
 *
 * @example
 * ```ts
 * import { randomBytes } from 'node:crypto';
 * const codec = createCursorCodec({ key: randomBytes(32), ttlSeconds: 3600 });
 * const cursor = codec.encode('git_log', { after: 'a1b2c3' });
 * codec.decode('git_log', cursor); // { after: 'a1b2c3' }
 * codec.decode('tools/list', cursor); // throws ProtocolError -32602
 * ```
 */
export function createCursorCodec(options: CursorCodecOptions): CursorCodec {
  if (!(options.key instanceof Uint8Array) || options.key.byteLength < MIN_KEY_BYTES) {
    throw new TypeError(`Cursor key must be a Uint8Array of at least ${MIN_KEY_BYTES} bytes.`);
  }
  const { ttlSeconds } = options;
  if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw new RangeError('Cursor ttlSeconds must be a positive number of seconds.');
  }
  // A private copy: a caller that reuses or zeroes its buffer must not change what we verify with.
  const key = Uint8Array.from(options.key);

  const sign = (list: string, payload: string): string =>
    // Length-prefixing the list name keeps (list, payload) pairs unambiguous whatever the name holds.
    createHmac('sha256', key).update(`${VERSION}\n${list.length}:${list}\n${payload}`).digest('base64url');

  return {
    encode(list, position) {
      assertListName(list);
      const envelope: Envelope = { p: position };
      if (ttlSeconds !== undefined) envelope.x = Date.now() + ttlSeconds * 1000;
      const payload = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
      const cursor = `${VERSION}.${payload}.${sign(list, payload)}`;
      if (cursor.length > MAX_CURSOR_LENGTH) {
        // decode would refuse it, so failing here points at the real bug: an oversized position.
        throw new RangeError(
          `Cursor position for "${list}" is too large (${cursor.length} > ${MAX_CURSOR_LENGTH}).`,
        );
      }
      return cursor;
    },

    decode<T extends CursorPosition = CursorPosition>(
      list: string,
      cursor: string,
      guard?: PositionGuard<T>,
    ): T {
      assertListName(list);
      if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) {
        throw invalidCursorError();
      }
      const parts = cursor.split('.');
      const [version, payload, mac] = parts;
      if (parts.length !== 3 || version !== VERSION || payload === undefined || mac === undefined) {
        throw invalidCursorError();
      }
      if (!BASE64URL.test(payload) || !BASE64URL.test(mac)) throw invalidCursorError();
      // Compare the canonical text of the MAC, not decoded bytes: base64 decoding ignores the spare
      // bits of the last character, which would let an edited cursor still verify.
      const given = Buffer.from(mac, 'ascii');
      const expected = Buffer.from(sign(list, payload), 'ascii');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursorError();

      const envelope = parseEnvelope(payload);
      if (envelope === undefined) throw invalidCursorError();
      if (envelope.x !== undefined ? Date.now() >= envelope.x : ttlSeconds !== undefined) {
        throw invalidCursorError();
      }
      if (guard !== undefined && !guard(envelope.p)) throw invalidCursorError();
      // Without a guard the MAC is the check: only this server can have minted the value.
      return envelope.p as T;
    },
  };
}

function assertListName(list: string): void {
  if (typeof list !== 'string' || list.length === 0) {
    throw new TypeError('Cursor list name must be a non-empty string.');
  }
}

function parseEnvelope(payload: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('p' in value))
    return undefined;
  const envelope: Envelope = { p: value.p as JsonValue };
  if ('x' in value) {
    if (typeof value.x !== 'number' || !Number.isFinite(value.x)) return undefined;
    envelope.x = value.x;
  }
  return envelope;
}
