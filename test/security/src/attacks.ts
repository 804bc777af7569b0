/**
 * The attack table (SECURITY.md "Streamable HTTP transport", sdk-v2 §9 items 13–17). Each attack
 * is one deviation from a request the server serves with 200, so a refusal can only come from the
 * check under test. Session, concurrency and slow-client attacks need more than one request and
 * live in their own test files.
 */
import { randomUUID } from 'node:crypto';
import { type RawResponse, requestText, sendRaw, sendStreaming } from './raw.js';
import {
  type Endpoint,
  editHeaders,
  type HeaderEdits,
  initializeBody,
  legacyPost,
  modernMessage,
  modernPost,
} from './requests.js';
import type { ServerUnderTest } from './servers.js';

export interface Attack {
  name: string;
  /** Only meaningful where the bin requires a bearer token. */
  tokenOnly?: boolean;
  status: number;
  /** The JSON-RPC error code the refusal must carry, when the spec or the runner fixes one. */
  code?: number;
  /** Extra checks on the refusal beyond status and code. */
  check?: (response: RawResponse) => void;
  send(at: Endpoint, server: ServerUnderTest): Promise<RawResponse>;
}

const MiB = 1024 * 1024;
/** The runner's body cap (sdk-v2 §5.2). */
export const BODY_CAP = 4 * MiB;
/** Small pieces keep little in flight when the server refuses, so its answer is not lost. */
const PIECE = 16 * 1024;

/** A POST like the good one with header `edits`. */
const post = (edits: HeaderEdits, body?: string) => (at: Endpoint) => sendRaw(at.port, modernPost(at, edits, body));

/** The bearer header of `at` with the token replaced by `token`. */
const bearer = (token: (good: string) => string) => (at: Endpoint) =>
  sendRaw(at.port, modernPost(at, { authorization: `Bearer ${token(at.token ?? '')}` }));

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

/** 100,000 nested arrays inside otherwise valid params: deep enough to overflow a recursive walk. */
function deeplyNested(): string {
  const depth = 100_000;
  return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}

/** Declares a body over the cap with Content-Length and starts sending it. */
function oversizedWithLength(at: Endpoint): Promise<RawResponse> {
  const pieces = Math.ceil(BODY_CAP / PIECE) + 8;
  const prefix = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"';
  const suffix = '"}}';
  const length = prefix.length + pieces * PIECE + suffix.length;
  const head = requestText(modernPost(at, { 'content-length': String(length) }, ''));
  return sendStreaming(at.port, `${head}${prefix}`, 'x'.repeat(PIECE), pieces, 2_000);
}

/** Sends chunk after chunk without ever declaring a length, well past the cap. */
function oversizedChunked(at: Endpoint): Promise<RawResponse> {
  const pieces = Math.ceil(BODY_CAP / PIECE) + 8;
  const head = requestText(modernPost(at, { 'content-length': null, 'transfer-encoding': 'chunked' }, ''));
  const chunk = `${PIECE.toString(16)}\r\n${'x'.repeat(PIECE)}\r\n`;
  return sendStreaming(at.port, head, chunk, pieces);
}

/** A `tools/call` of the server's read tool whose `Mcp-Name` names another tool. */
function nameMismatch(at: Endpoint, server: ServerUnderTest): Promise<RawResponse> {
  const call = modernMessage(1, 'tools/call', { name: server.tool, arguments: {} });
  return sendRaw(at.port, modernPost(at, { ...call.headers, 'mcp-name': 'delete_everything' }, call.body));
}

export const ATTACKS: Attack[] = [
  // DNS rebinding: the Host names a host that is not this loopback server.
  { name: 'Host evil.example:PORT', status: 403, send: (at) => post({ host: `evil.example:${at.port}` })(at) },
  { name: 'Host localhost.evil.example', status: 403, send: post({ host: 'localhost.evil.example' }) },
  { name: 'Host 127.0.0.1.evil.example', status: 403, send: post({ host: '127.0.0.1.evil.example' }) },
  { name: 'Host localhost on another port', status: 403, send: (at) => post({ host: `localhost:${at.port + 1}` })(at) },
  { name: 'no Host header', status: 400, send: post({ host: null }) },
  // Cross-site requests from a browser.
  { name: 'Origin http://evil.example', status: 403, send: post({ origin: 'http://evil.example' }) },
  { name: 'Origin null', status: 403, send: post({ origin: 'null' }) },
  { name: 'Origin http://localhost.evil.example', status: 403, send: post({ origin: 'http://localhost.evil.example' }) },
  { name: 'Origin with userinfo', status: 403, send: post({ origin: 'http://localhost@evil.example' }) },
  // Ambiguous requests that a proxy and this server could read differently (sdk-v2 §9 items 13–14).
  {
    name: 'a second Host header after the good one',
    status: 400,
    send: (at) => post({ host: [`127.0.0.1:${at.port}`, 'evil.example'] })(at),
  },
  {
    name: 'a second Host header before the good one',
    status: 400,
    send: (at) => post({ host: ['evil.example', `127.0.0.1:${at.port}`] })(at),
  },
  {
    name: 'absolute-form target naming another host',
    status: 400,
    send: (at) => sendRaw(at.port, { ...modernPost(at), target: `http://evil.example:${at.port}/mcp` }),
  },
  {
    name: 'absolute-form target naming this server',
    status: 400,
    send: (at) => sendRaw(at.port, { ...modernPost(at), target: `http://127.0.0.1:${at.port}/mcp` }),
  },
  { name: 'wrong path /other', status: 404, send: (at) => sendRaw(at.port, { ...modernPost(at), target: '/other' }) },
  {
    name: 'PUT',
    status: 405,
    check: (response) => {
      if (!/POST/.test(response.headers.allow ?? '')) throw new Error('405 without an Allow header naming POST');
    },
    send: (at) => sendRaw(at.port, { ...modernPost(at), method: 'PUT' }),
  },
  // Bearer token (only where one is configured).
  { name: 'no bearer', tokenOnly: true, status: 401, send: post({ authorization: null }) },
  { name: 'wrong bearer of the same length', tokenOnly: true, status: 401, send: bearer((t) => 'x'.repeat(t.length)) },
  { name: 'shorter bearer (a prefix)', tokenOnly: true, status: 401, send: bearer((t) => t.slice(0, -1)) },
  { name: 'longer bearer (an extension)', tokenOnly: true, status: 401, send: bearer((t) => `${t}0`) },
  { name: 'very long bearer', tokenOnly: true, status: 401, send: bearer((t) => t.repeat(200)) },
  {
    name: 'the token under Basic',
    tokenOnly: true,
    status: 401,
    send: (at) => post({ authorization: `Basic ${Buffer.from(`user:${at.token}`).toString('base64')}` })(at),
  },
  {
    name: 'duplicate Authorization (good one first)',
    tokenOnly: true,
    status: 400,
    send: (at) => post({ authorization: [`Bearer ${at.token}`, 'Bearer wrong'] })(at),
  },
  {
    name: 'duplicate Authorization (good one second)',
    tokenOnly: true,
    status: 400,
    send: (at) => post({ authorization: ['Bearer wrong', `Bearer ${at.token}`] })(at),
  },
  // Protocol shape.
  { name: 'Accept: application/json only', status: 406, send: post({ accept: 'application/json' }) },
  { name: 'Content-Type: text/plain', status: 415, send: post({ 'content-type': 'text/plain' }) },
  { name: 'MCP-Protocol-Version: 1999-01-01', status: 400, send: post({ 'mcp-protocol-version': '1999-01-01' }) },
  { name: 'Mcp-Method disagreeing with the body', status: 400, send: post({ 'mcp-method': 'tools/call' }) },
  { name: 'Mcp-Name disagreeing with the body', status: 400, send: nameMismatch },
  // Bodies.
  { name: 'invalid JSON', status: 400, code: -32700, send: post({}, '{"jsonrpc":"2.0","id":1,') },
  {
    name: 'a JSON-RPC batch of 2026 requests',
    status: 400,
    send: post({}, `[${modernMessage(1, 'tools/list').body},${modernMessage(2, 'tools/list').body}]`),
  },
  {
    name: 'a JSON-RPC batch holding a 2025 initialize',
    status: 400,
    send: (at) => sendRaw(at.port, legacyPost(at, `[${initializeBody()}]`)),
  },
  { name: 'JSON nested 100,000 deep', status: 400, send: (at) => post({}, deeplyNested())(at) },
  { name: 'a body over 4 MiB with Content-Length', status: 413, send: oversizedWithLength },
  { name: 'a chunked body over 4 MiB without Content-Length', status: 413, send: oversizedChunked },
  // Sessions nobody was given (guessed or stale ids).
  { name: 'POST on an unknown session id', status: 404, send: unknownSession('POST') },
  { name: 'GET on an unknown session id', status: 404, send: unknownSession('GET') },
  { name: 'DELETE on an unknown session id', status: 404, send: unknownSession('DELETE') },
];

/** The unmodified request every attack deviates from. */
export function goodRequest(at: Endpoint): Promise<RawResponse> {
  return sendRaw(at.port, modernPost(at));
}
