/**
 * Cursors of the paged read tools (diffs, log, reflog): core's argument-bound cursors, bound to the
 * tool, the repository and the arguments, so a cursor from one call cannot be replayed on another.
 */
import { createHash } from 'node:crypto';
import {
  argumentsKey,
  type BoundPosition,
  type CursorCodec,
  decodeBoundCursor,
} from '@mcpkit/core/pagination';

/** The key of a call's arguments: what a cursor is bound to. */
export const keyOf = argumentsKey;

/** The first 16 hex digits of the SHA-256 of `text`. */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The position in `cursor`, checked against the tool (`list`), the arguments' key and the shape
 * `fields` names (each a number or a string). A forged cursor is a protocol error from the codec;
 * a genuine one given with other arguments is a `UserError`.
 */
export function decodeCursor<T extends BoundPosition>(
  codec: CursorCodec,
  list: string,
  cursor: string,
  key: string,
  fields: Record<keyof T, 'number' | 'string'>,
): T {
  return decodeBoundCursor<T>(
    codec,
    list,
    cursor,
    key,
    (value) => Object.entries(fields).every(([name, type]) => typeof value[name] === type),
    `This cursor was made for other arguments of ${list}; repeat the call that returned it with the same arguments, or leave cursor out to start over.`,
  );
}
