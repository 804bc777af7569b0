/**
 * Raw HTTP/1.1 over `node:net`. `fetch` normalises or refuses exactly the requests an attacker
 * sends (two Host headers, a forged Host, absolute-form targets, bodies that lie about their
 * length), so those go out byte for byte from here.
 */
import { connect, type Socket } from 'node:net';
import { httpResponseComplete, parseHttpResponse, type RawHttpResponse } from '@mcpkit/core/testing';

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

export type RawResponse = RawHttpResponse;

/** The request as text. The caller's headers are sent as given: nothing is added. */
export function requestText(request: RawRequest): string {
  const lines = [`${request.method ?? 'POST'} ${request.target ?? '/mcp'} ${request.version ?? 'HTTP/1.1'}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
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
        resolve(parseHttpResponse(Buffer.concat(chunks)));
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
      if (httpResponseComplete(Buffer.concat(chunks))) finish();
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
