/**
 * Era routing for one HTTP exchange. The decision is the SDK's own (`isLegacyRequest` runs the
 * exact classification `createMcpHandler` runs), fed with the body the runner already parsed so no
 * stream is read twice.
 */
import type { IncomingMessage } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';

/**
 * True when the exchange belongs to the 2025-era (sessionful) leg; false for the 2026 handler.
 * `message` is the parsed POST body, `undefined` for GET and DELETE.
 */
export async function isLegacyExchange(
  req: IncomingMessage,
  message: Record<string, unknown> | undefined,
  maxBodyBytes: number,
): Promise<boolean> {
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    for (const value of values ?? []) headers.append(name, value);
  }
  // The Host was validated already; the probe only needs a well-formed URL, never a body.
  const probe = new Request(`http://localhost${req.url ?? '/'}`, { method: req.method ?? 'GET', headers });
  return isLegacyRequest(probe, message, { maxRequestBodySize: maxBodyBytes });
}
