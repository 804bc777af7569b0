/**
 * Reading an HTTP/1.1 response off a raw socket, for tests that must send requests `fetch` would
 * normalise or refuse (two Host headers, absolute-form targets, bodies that lie about their
 * length). The request side stays with each test: what it sends is the point of the test.
 */

/** A response as it arrived. */
export interface RawHttpResponse {
  status: number;
  /** Lowercased names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body as UTF-8, a chunked one decoded. */
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

function splitHead(data: Buffer): { head: string; body: Buffer } | undefined {
  const split = data.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  return { head: data.subarray(0, split).toString('latin1'), body: data.subarray(split + 4) };
}

const isChunked = (head: string) => /\r\ntransfer-encoding: *chunked/i.test(head);

/**
 * Decodes a chunked body by its byte counts (sizes count bytes, not UTF-16 characters, so this
 * works on the raw buffer); `complete` once the last, empty chunk arrived.
 */
function dechunk(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) break;
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    if (data.byteLength < eol + 2 + size) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return { body: Buffer.concat(parts), complete: false };
}

/**
 * Whether `data` holds a whole response by its framing: the declared `Content-Length`, or the last
 * chunk of a chunked body. A server may keep the connection open after answering.
 */
export function httpResponseComplete(data: Buffer): boolean {
  const parts = splitHead(data);
  if (parts === undefined) return false;
  if (isChunked(parts.head)) return dechunk(parts.body).complete;
  const length = /\r\ncontent-length: *(\d+)/i.exec(parts.head)?.[1];
  return length !== undefined && parts.body.byteLength >= Number(length);
}

/**
 * Parses a response as it arrived on the socket (a truncated chunked body yields what arrived);
 * throws when not even a status line and head arrived.
 *
 * @example
 * ```ts
 * import { createConnection } from 'node:net';
 * const socket = createConnection(8808, '127.0.0.1');
 * socket.end('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n');
 * const chunks: Buffer[] = [];
 * for await (const chunk of socket) chunks.push(chunk);
 * const { status, json } = parseHttpResponse(Buffer.concat(chunks));
 * ```
 */
export function parseHttpResponse(raw: string | Buffer): RawHttpResponse {
  const data = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  const parts = splitHead(data);
  if (parts === undefined) {
    throw new Error(`no HTTP response head in ${JSON.stringify(data.subarray(0, 200).toString('utf8'))}`);
  }
  const [statusLine = '', ...headerLines] = parts.head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = (isChunked(parts.head) ? dechunk(parts.body).body : parts.body).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}
