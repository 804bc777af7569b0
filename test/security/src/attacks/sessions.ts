/**
 * Session ids nobody was given: guessed or stale ids must answer 404 to every method
 * (session ids are never credentials). Attacks that need a real session live in
 * test/sessions.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { sendRaw } from '../raw.js';
import { type Endpoint, editHeaders, legacyPost } from '../requests.js';
import type { Attack } from './attack.js';

/** A legacy `ping` on a session id nobody was given, with `method`. */
function unknownSession(method: 'POST' | 'GET' | 'DELETE') {
  return (at: Endpoint) => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const request = legacyPost(at, ping, randomUUID());
    if (method === 'POST') return sendRaw(at.port, request);
    const headers = editHeaders(Object.fromEntries(request.headers), {
      accept: 'text/event-stream',
      'content-type': null,
      'content-length': null,
    });
    return sendRaw(at.port, { method, headers });
  };
}

export const SESSION_ATTACKS: Attack[] = [
  { name: 'POST on an unknown session id', status: 404, send: unknownSession('POST') },
  { name: 'GET on an unknown session id', status: 404, send: unknownSession('GET') },
  { name: 'DELETE on an unknown session id', status: 404, send: unknownSession('DELETE') },
];
