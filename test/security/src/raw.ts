/**
 * Raw HTTP/1.1 over `node:net`. `fetch` normalises or refuses exactly the requests an attacker
 * sends (two Host headers, a forged Host, absolute-form targets, bodies that lie about their
 * length), so those go out byte for byte from here.
 */
import { connect, type Socket } from 'node:net';

/** Header lines in order; a name may repeat, which is the point of some attacks. */
export type HeaderList = [name: string, value: string][];

export interface RawRequest {
  method?: string;
  target?: string;
  /** Default `HTTP/1.1`. */
  version?: string;
  headers: HeaderList;
  body?: string;
}

export interface RawResponse {
  status: number;
  /** Lowercased names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** The body as JSON when it parses, otherwise `undefined`. */
  json: unknown;
}

/** The request as text. The caller's headers are sent as given: nothing is added. */
export function requestText(request: RawRequest): string {
  const lines = [`${request.method ?? 'POST'} ${request.target ?? '/mcp'} ${request.version ?? 'HTTP/1.1'}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
}

/**
 * Decodes a chunked body by its byte counts (sizes count bytes, not UTF-16 characters, so this
 * works on the raw buffer); a truncated one yields what arrived.
 */
function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.byteLength) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) break;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Parses a complete response; throws when no status line and head arrived at all. */
export function parseResponse(raw: Buffer): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) {
    throw new Error(`no HTTP response head in ${JSON.stringify(raw.subarray(0, 120).toString('utf8'))}`);
  }
  const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(split + 4);
  const body = (/chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(rest) : rest).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body, json };
}

/** Whether `data` holds a whole response: its head and a body of the declared length. */
function complete(data: Buffer): boolean {
  const split = data.indexOf('\r\n\r\n');
  if (split === -1) return false;
  const head = data.subarray(0, split).toString('latin1');
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined) return data.byteLength - split - 4 >= Number(length);
  return /\r\ntransfer-encoding: *chunked/i.test(head) && data.subarray(split).includes('\r\n0\r\n\r\n');
}

export interface Exchange {
  socket: Socket;
  /** Resolves with the response once it is complete or the server closes the connection. */
  response: Promise<RawResponse>;
  /** True once the first response byte arrived: senders of long bodies stop there. */
  answered(): boolean;
}

/** Opens a socket to 127.0.0.1:`port` and collects one response; the caller writes the request. */
export function openExchange(port: number, timeoutMs = 10_000): Exchange {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const response = new Promise<RawResponse>((resolve, reject) => {
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks))) finish();
    });
    // A reset after the answer arrived is expected when the server refuses an unread body.
    socket.on('error', () => undefined);
    socket.on('close', finish);
  });
  return { socket, response, answered: () => chunks.length > 0 };
}

/** Sends one request verbatim and reads the response. */
export function sendRaw(port: number, request: RawRequest | string): Promise<RawResponse> {
  const exchange = openExchange(port);
  exchange.socket.write(typeof request === 'string' ? request : requestText(request));
  return exchange.response;
}

/**
 * Sends `head`, waits up to `holdMs` for an early answer (a server that judges a declared length
 * answers before any body byte), then sends `chunk` up to `times` times and stops as soon as the
 * server answers. Writing on after its answer would only race its close: a write that meets the
 * closed socket (EPIPE) makes Node drop the answer that was already on its way in.
 */
export async function sendStreaming(
  port: number,
  head: string,
  chunk: string,
  times: number,
  holdMs = 0,
): Promise<RawResponse> {
  const exchange = openExchange(port, 20_000);
  const { socket } = exchange;
  socket.write(head);
  const deadline = Date.now() + holdMs;
  while (Date.now() < deadline && !exchange.answered() && !socket.destroyed) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (let i = 0; i < times && !exchange.answered() && !socket.destroyed; i++) {
    // Yield every round so an early answer is seen before the next write.
    await new Promise((resolve) => setImmediate(resolve));
    if (!socket.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });
    }
  }
  return exchange.response;
}
