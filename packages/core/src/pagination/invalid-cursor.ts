import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The one message every rejected cursor gets. It deliberately does not say *why* the cursor was
 * refused (forged, expired, from another list): the client cannot fix any of those except by
 * starting over, and a precise reason would only help someone probing the signature.
 */
export const INVALID_CURSOR_MESSAGE =
  'Invalid or expired cursor; call the method again without a cursor to start over.';

/**
 * The JSON-RPC -32602 error for a cursor that cannot be used.
 *
 * @example
 * ```ts
 * function offsetOf(position: JsonValue): number {
 *   if (typeof position !== 'number' || position < 0) throw invalidCursorError();
 *   return position;
 * }
 * ```
 */
export function invalidCursorError(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_CURSOR_MESSAGE, {
    reason: 'invalid_cursor',
  });
}
