/**
 * Shared pieces of the HTTP runner tests: a tiny echo server factory, SDK clients for both eras,
 * a raw-socket request writer for the attacks `fetch` refuses to send (duplicate or forged
 * Host headers, absolute-form targets, slow or endless requests), and an SSE reader that skips
 * events without data (the priming event) the way a client does.
 */
import { connect } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type McpRequestContext, McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { expect } from 'vitest';
import * as z from 'zod';
import { httpResponseComplete, parseHttpResponse, type RawHttpResponse } from '../src/testing/raw-http.js';

export type Era = 'legacy' | 'modern';

export const MODERN = '2026-07-28';

/** What the factory saw: every construction context and every legacy instance it built. */
export interface FactoryRecord {
  contexts: McpRequestContext[];
  legacy: McpServer[];
}

export function newRecord(): FactoryRecord {
  return { contexts: [], legacy: [] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An McpServer with one `echo` tool (optionally slow) and one subscribable resource. */
export function echoFactory(record: FactoryRecord = newRecord()): McpServerFactory {
  return (ctx) => {
    record.contexts.push(ctx);
    const mcp = new McpServer(
      { name: 'echo-test', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } },
    );
    mcp.registerTool(
      'echo',
      {
        description: 'Returns its input.',
        inputSchema: z.object({ text: z.string(), delayMs: z.number().int().min(0).max(5_000).optional() }),
      },
      async ({ text, delayMs }) => {
        if (delayMs) await sleep(delayMs);
        return { content: [{ type: 'text', text }] };
      },
    );
    mcp.registerResource(
      'note',
      'note://a',
      { description: 'A note.', mimeType: 'text/plain' },
      async (uri) => ({
        contents: [{ uri: uri.href, text: 'a' }],
      }),
    );
    if (ctx.era === 'legacy') record.legacy.push(mcp);
    return mcp;
  };
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Ends the session (DELETE on legacy: the SDK client does not send one on close) and closes the client. */
  close(): Promise<void>;
}

/** Connects an SDK client in `era`, sending `token` as a bearer when given. */
export async function connectClient(url: string, era: Era, token?: string): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client(
    { name: 'http-test', version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(transport);
  expect(client.getProtocolEra()).toBe(era);
  return {
    client,
    transport,
    async close() {
      if (era === 'legacy') await transport.terminateSession();
      await client.close();
    },
  };
}

/** Calls `echo` once and checks the answer. */
export async function callEcho(client: Client, text: string): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  expect(result.content).toEqual([{ type: 'text', text }]);
}

/** Proves a well-behaved client is still served, in both eras. */
export async function expectGoodClients(url: string, token?: string): Promise<void> {
  for (const era of ['legacy', 'modern'] as const) {
    const c = await connectClient(url, era, token);
    await callEcho(c.client, `still fine (${era})`);
    await c.close();
  }
}

/** The `_meta` envelope a 2026-07-28 request carries. */
export function envelope(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A 2026-07-28 `tools/call` of `echo` as raw body and headers. */
export function modernEchoCall(id: number | string, text: string, delayMs = 0) {
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text, delayMs }, _meta: envelope() },
    }),
    headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
  };
}

/** A 2025 `initialize` body. */
export function initializeBody(id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
}

export interface RawOptions {
  method?: string;
  target?: string;
  /** Replaces a default header; `null` drops it; an array sends the header once per value. */
  headers?: Record<string, string | string[] | null>;
  body?: string;
}

export type RawResponse = RawHttpResponse;

/** Writes one HTTP/1.1 request as text; defaults: POST /mcp, loopback Host, both Accept types. */
export function rawRequestText(port: number, options: RawOptions = {}): string {
  const body = options.body ?? '';
  const defaults: Record<string, string | string[] | null> = {
    host: `127.0.0.1:${port}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const merged: Record<string, string | string[] | null> = { ...defaults };
  for (const [name, value] of Object.entries(options.headers ?? {})) merged[name.toLowerCase()] = value;
  const lines = [`${options.method ?? 'POST'} ${options.target ?? '/mcp'} HTTP/1.1`];
  for (const [name, value] of Object.entries(merged)) {
    if (value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Sends a raw request and reads the whole answer (the server closes: `Connection: close`). */
export function rawHttp(port: number, options: RawOptions = {}, timeoutMs = 5_000): Promise<RawResponse> {
  return rawSend(port, rawRequestText(port, options), timeoutMs);
}

/**
 * Sends `data` verbatim over a fresh socket and parses the response. It resolves when the server
 * closes or when the response is complete by its framing (`Content-Length`, or the last chunk of
 * a chunked body): the SDK's own answers may keep the connection alive whatever the request asked.
 */
export function rawSend(port: number, data: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseHttpResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    };
    const timer = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (httpResponseComplete(Buffer.concat(chunks))) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    socket.write(data);
  });
}

/** One server-sent event, as a client's parser reports it. */
export interface SseEvent {
  id?: string;
  event?: string;
  retry?: number;
  /** The data lines joined with `\n`; empty for an event that only carries an id or `retry`. */
  data: string;
}

/**
 * Parses an SSE body by the WHATWG field rules (one optional space after the colon, comment lines
 * skipped, several `data` lines joined). Every block with a field is reported, even without data,
 * so a test can see the priming event; {@link sseMessages} is what a client acts on.
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let current: SseEvent | undefined;
  const data: string[] = [];
  const dispatch = () => {
    if (current !== undefined) events.push({ ...current, data: data.join('\n') });
    current = undefined;
    data.length = 0;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    current ??= { data: '' };
    if (field === 'data') data.push(value);
    else if (field === 'id') current.id = value;
    else if (field === 'event') current.event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) current.retry = Number(value);
  }
  dispatch();
  return events;
}

/**
 * The JSON-RPC messages of an SSE response, in order. Events without data carry no message (the
 * priming event of a resumable stream has only an id and `retry`) and are skipped, as a real
 * client skips them; data that is not JSON fails the test.
 */
export function sseMessages(response: RawResponse): unknown[] {
  expect(response.headers['content-type']).toBe('text/event-stream');
  return parseSse(response.body)
    .filter((event) => event.data !== '')
    .map((event) => JSON.parse(event.data) as unknown);
}

/** The JSON-RPC error code of a one-line error body. */
export function errorCode(response: RawResponse): number | undefined {
  const json = response.json as { error?: { code?: number } } | undefined;
  return json?.error?.code;
}

export { sleep };
