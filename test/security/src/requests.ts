/**
 * Well-formed MCP requests for both eras, as raw HTTP, so each attack is one change to a request
 * the server would otherwise serve. A 2026-07-28 request carries its protocol version, client info
 * and capabilities in `params._meta` and mirrors method and name in `Mcp-Method` / `Mcp-Name`.
 */
import type { HeaderList, RawRequest } from './raw.js';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** Where a running bin listens, and the bearer it wants (if any). */
export interface Endpoint {
  port: number;
  url: string;
  token: string | undefined;
}

/** Header changes: a string replaces, an array repeats the header, `null` drops it. */
export type HeaderEdits = Record<string, string | string[] | null>;

/** The `_meta` envelope every 2026-07-28 request carries. */
export function envelope(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'security-suite', version: '0.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A 2026-07-28 request body and the standard headers that mirror it. */
export function modernMessage(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
): { body: string; headers: HeaderEdits } {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } });
  const headers: HeaderEdits = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  return { body, headers };
}

/** A 2025-era `initialize` body. */
export function initializeBody(id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'security-suite', version: '0' },
    },
  });
}

/** Applies `edits` to `base`, keeping the order of the base headers. */
export function editHeaders(base: HeaderEdits, edits: HeaderEdits = {}): HeaderList {
  const merged: HeaderEdits = { ...base };
  for (const [name, value] of Object.entries(edits)) merged[name.toLowerCase()] = value;
  const list: HeaderList = [];
  for (const [name, value] of Object.entries(merged)) {
    if (value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) list.push([name, v]);
  }
  return list;
}

/** The headers any good POST to `at` carries: loopback Host, both Accept types, JSON, the bearer. */
export function postHeaders(at: Endpoint, body: string): HeaderEdits {
  return {
    host: `127.0.0.1:${at.port}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...(at.token === undefined ? {} : { authorization: `Bearer ${at.token}` }),
    connection: 'close',
  };
}

/**
 * A 2026-07-28 `tools/list` POST the server would serve (200), with `edits` applied to its headers
 * and optionally another body. Content-Length follows the body unless the edits set it.
 */
export function modernPost(at: Endpoint, edits: HeaderEdits = {}, body?: string): RawRequest {
  const message = modernMessage(1, 'tools/list');
  const text = body ?? message.body;
  return {
    headers: editHeaders({ ...postHeaders(at, text), ...message.headers }, edits),
    body: text,
  };
}

/** A 2025-era POST on session `sessionId` (or an `initialize` without one). */
export function legacyPost(
  at: Endpoint,
  body: string,
  sessionId?: string,
  edits: HeaderEdits = {},
): RawRequest {
  const session: HeaderEdits =
    sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  return { headers: editHeaders({ ...postHeaders(at, body), ...session }, edits), body };
}
