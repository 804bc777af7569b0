/**
 * Cursors bound to the arguments of the call that made them. A paged tool re-runs its work for the
 * next page (a query, a diff, a download), so a cursor from one call must not be replayed on another
 * with other arguments: it would skip the wrong rows or resume in the wrong place. The codec already
 * refuses a forged or edited cursor (a protocol error); this adds the key of the arguments, and a
 * genuine cursor sent with other arguments gets the tool's own sentence saying what to do.
 */
import { createHash } from 'node:crypto';
import { UserError } from '../errors/index.js';
import type { CursorCodec, JsonValue } from './cursor-codec.js';

/** A position object as a bound cursor carries it; `k` is reserved for the key. */
export type BoundPosition = { [field: string]: JsonValue };

/**
 * A short key of a call's arguments: the first 16 hex digits of the SHA-256 of their JSON.
 *
 * @example
 * ```ts
 * const key = argumentsKey('read_query', 'SELECT * FROM t WHERE id = ?', [7]); // 16 hex digits
 * ```
 */
export function argumentsKey(...parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/**
 * Mints a cursor of `list` for `position`, bound to the arguments `key` names.
 *
 * @example
 * ```ts
 * const key = argumentsKey('read_query', 'SELECT * FROM t', null);
 * const cursor = encodeBoundCursor(call.app.cursors, 'read_query', key, { o: 500 });
 * ```
 */
export function encodeBoundCursor<T extends BoundPosition>(
  codec: CursorCodec,
  list: string,
  key: string,
  position: T,
): string {
  return codec.encode(list, { ...position, k: key });
}

/**
 * The position in `cursor`, checked by `isPosition` and against `key`. A forged, edited or
 * misshapen cursor is the codec's protocol error; a genuine one made for other arguments throws a
 * {@link UserError} with `mismatch`.
 *
 * @example
 * ```ts
 * declare const cursor: string;
 * const key = argumentsKey('read_query', 'SELECT * FROM t', null);
 * const { o } = decodeBoundCursor<{ o: number }>(
 *   call.app.cursors,
 *   'read_query',
 *   cursor,
 *   key,
 *   (value) => Number.isSafeInteger(value.o),
 *   'This cursor belongs to another query; repeat the call that returned it, or leave cursor out.',
 * );
 * ```
 */
export function decodeBoundCursor<T extends BoundPosition>(
  codec: CursorCodec,
  list: string,
  cursor: string,
  key: string,
  isPosition: (value: { [field: string]: JsonValue }) => boolean,
  mismatch: string,
): T {
  const position = codec.decode(list, cursor, (value): value is BoundPosition & { k: string } => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return typeof value.k === 'string' && isPosition(value);
  });
  if (position.k !== key) throw new UserError(mismatch);
  const { k: _key, ...rest } = position;
  return rest as T;
}
