/**
 * @internal How a failed prompt or resource read reaches the client. Unlike tools (whose failures
 * are results), these answer with a JSON-RPC error: the protocol's not-found for a resource that
 * does not exist, -32602 with the sentence for a user's mistake, and a fixed sentence for a bug.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { isUserError, NotFound } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';

export function toProtocolError(log: Logger, what: string, error: unknown, uri?: string): never {
  if (error instanceof ProtocolError) throw error;
  // The resource's own sentence says what is missing and what to do; the SDK's default repeats the URI.
  if (error instanceof NotFound && uri) throw new ResourceNotFoundError(uri, error.message);
  if (isUserError(error)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, uri ? { uri } : undefined);
  }
  log.error(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  throw new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed because of an internal error.`);
}
