/**
 * How the HTTP runner refuses a request: one line of JSON-RPC error, never a stack trace or a host
 * path (error leakage is a known MCP server flaw). Every guard returns an
 * {@link HttpRejection}; only this file writes it.
 */
import type { ServerResponse } from 'node:http';

/** JSON-RPC codes the runner uses on its own answers. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;
/** The generic implementation-defined server error the SDK also uses for HTTP-level refusals. */
export const SERVER_ERROR = -32000;
/** The SDK's code for "Session not found". */
export const SESSION_NOT_FOUND = -32001;

/** A refusal decided before the SDK sees the request. */
export interface HttpRejection {
  status: number;
  code: number;
  /** One sentence; it is sent to the client, so it names no secret and no path. */
  message: string;
  headers?: Record<string, string>;
  /** Close the connection after answering, for requests whose body was left unread. */
  closeConnection?: boolean;
  /** The request's JSON-RPC id, when the body was read; `null` otherwise. */
  id?: string | number | null;
  /** Machine-readable detail, e.g. the supported protocol versions. */
  data?: Record<string, unknown>;
}

/** Builds a rejection; a shorthand for the guards. */
export function reject(
  status: number,
  code: number,
  message: string,
  extra: Pick<HttpRejection, 'headers' | 'closeConnection'> = {},
): HttpRejection {
  return { status, code, message, ...extra };
}

/**
 * Writes `rejection` as a JSON-RPC error body. When the response already started (an SSE stream
 * failed half way) the only honest answer left is to cut the connection.
 */
export function sendRejection(res: ServerResponse, rejection: HttpRejection): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: {
      code: rejection.code,
      message: rejection.message,
      ...(rejection.data ? { data: rejection.data } : {}),
    },
    id: rejection.id ?? null,
  });
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...rejection.headers,
  };
  if (rejection.closeConnection) headers.connection = 'close';
  res.writeHead(rejection.status, headers);
  res.end(body);
}
