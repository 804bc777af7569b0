/**
 * 2025-era session plumbing over `fetch`: open a session by hand, then replay its id with other
 * methods, bodies or credentials. `fetch` suffices here because nothing about these requests is
 * malformed; only who sends which id is.
 */
import { initializeBody, LEGACY } from './requests.js';

/** The credential to present: the bin's token, another string, or none at all. */
export type Credential = { bearer: string } | 'none';

function headersFor(credential: Credential, extra: Record<string, string>): Record<string, string> {
  return credential === 'none' ? extra : { ...extra, authorization: `Bearer ${credential.bearer}` };
}

const JSON_AND_SSE = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** Opens a 2025 session (initialize, then the initialized notification) and returns its id. */
export async function openSession(url: string, credential: Credential): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: headersFor(credential, JSON_AND_SSE),
    body: initializeBody(),
  });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || id === null)
    throw new Error(`initialize answered ${init.status} without a session`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: headersFor(credential, {
      ...JSON_AND_SSE,
      'mcp-session-id': id,
      'mcp-protocol-version': LEGACY,
    }),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return id;
}

/** POSTs `body` (a `ping` by default) on session `id`; resolves with the HTTP status. */
export async function postOnSession(
  url: string,
  id: string,
  credential: Credential,
  body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: headersFor(credential, {
      ...JSON_AND_SSE,
      'mcp-session-id': id,
      'mcp-protocol-version': LEGACY,
    }),
    body,
  });
  await response.body?.cancel();
  return response.status;
}

/** Sends GET (the session's SSE stream) or DELETE on session `id`; resolves with the status. */
export async function sessionRequest(
  url: string,
  method: 'GET' | 'DELETE',
  id: string,
  credential: Credential,
): Promise<number> {
  const response = await fetch(url, {
    method,
    headers: headersFor(credential, {
      accept: 'text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': LEGACY,
    }),
  });
  // A GET that succeeded is an endless stream: take the status and hang up.
  await response.body?.cancel();
  return response.status;
}
