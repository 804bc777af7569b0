/**
 * Attacks on the protocol shape and the body: missing Accept types, a foreign Content-Type, an
 * unknown protocol version, standard headers that disagree with the body, invalid JSON, batches
 * (seen with SDK 2.4), nesting deep enough to overflow a recursive walk (item 15), and bodies past
 * the 4 MiB cap with and without a declared length.
 */
import { type RawResponse, requestText, sendRaw, sendStreaming } from '../raw.js';
import { type Endpoint, initializeBody, legacyPost, modernMessage, modernPost } from '../requests.js';
import type { ServerUnderTest } from '../servers.js';
import { type Attack, post } from './attack.js';

const MiB = 1024 * 1024;
/** The runner's body cap (SDK 2.4). */
export const BODY_CAP = 4 * MiB;
/** Small pieces keep little in flight when the server refuses, so its answer is not lost. */
const PIECE = 16 * 1024;

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

export const BODY_ATTACKS: Attack[] = [
  { name: 'Accept: application/json only', status: 406, send: post({ accept: 'application/json' }) },
  { name: 'Content-Type: text/plain', status: 415, send: post({ 'content-type': 'text/plain' }) },
  {
    name: 'MCP-Protocol-Version: 1999-01-01',
    status: 400,
    send: post({ 'mcp-protocol-version': '1999-01-01' }),
  },
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
];
