/**
 * Cursors of the paged read tools (diffs, log, show, reflog). A cursor is signed by the app's codec,
 * so a client cannot edit the position in it; it also carries a key of the arguments and the
 * repository it was made for, so a cursor from one call cannot be replayed on another.
 */
import { createHash } from 'node:crypto';
import { UserError } from '@mcpkit/core/errors';
import type { CursorCodec, JsonValue } from '@mcpkit/core/pagination';

/** A short digest of a call's arguments: what a cursor is bound to. */
export function keyOf(...parts: readonly unknown[]): string {
  return digest(JSON.stringify(parts));
}

/** The first 16 hex digits of the SHA-256 of `text`. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Every position carries `k`, the key of the arguments it was made for. */
export type Keyed = { k: string } & { [field: string]: JsonValue };

/**
 * The position in `cursor`, checked against the tool (`list`), the arguments' key and the shape
 * `fields` names (each a number or a string). A forged cursor is a protocol error from the codec;
 * a genuine one given with other arguments is a `UserError`.
 */
export function decodeCursor<T extends Keyed>(
  codec: CursorCodec,
  list: string,
  cursor: string,
  key: string,
  fields: Record<Exclude<keyof T, 'k'>, 'number' | 'string'>,
): T {
  const position = codec.decode<Keyed>(list, cursor, (value): value is Keyed => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    if (typeof value.k !== 'string') return false;
    return Object.entries(fields).every(([name, type]) => typeof value[name] === type);
  });
  if (position.k !== key) {
    throw new UserError(
      `This cursor was made for other arguments of ${list}; repeat the call that returned it with the same arguments, or leave cursor out to start over.`,
    );
  }
  return position as T;
}
