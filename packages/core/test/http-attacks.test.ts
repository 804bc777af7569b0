/**
 * Attack inputs for the Streamable HTTP transport, and gaps seen with SDK 2.4, each sent
 * over a real socket. Every case asserts the refusal AND that well-behaved clients of both eras
 * are still served afterwards.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServerHandle, startHttpServer } from '../src/runner/http-server.js';
import { parseHttpResponse } from '../src/testing/raw-http.js';
import {
  echoFactory,
  errorCode,
  expectGoodClients,
  initializeBody,
  modernEchoCall,
  type RawResponse,
  rawHttp,
  rawRequestText,
  rawSend,
  sleep,
  sseMessages,
} from './http-helpers.js';

const TOKEN = 'attack-suite-token-0123456789abcdef';
const AUTH = `Bearer ${TOKEN}`;
const MAX_BODY = 64 * 1024;

let http: HttpServerHandle;

beforeAll(async () => {
  http = await startHttpServer({
    factory: echoFactory(),
    token: TOKEN,
    maxBodyBytes: MAX_BODY,
    allowedOrigins: ['https://app.example'],
    allowedHosts: ['mcp.internal'],
  });
});

afterAll(async () => {
  await http.close();
});

/** A modern echo call with the good bearer, plus whatever the case changes. */
function modernRequest(headers: Record<string, string | string[] | null> = {}, body?: string) {
  const call = modernEchoCall(1, 'x');
  return { body: body ?? call.body, headers: { authorization: AUTH, ...call.headers, ...headers } };
}

/** Sends bytes verbatim: for bodies a text template cannot carry. */
const sendAndRead = (data: string | Buffer) => rawSend(http.port, data);

async function refused(response: RawResponse, status: number, code?: number): Promise<void> {
  expect(response.status).toBe(status);
  // One line of JSON-RPC: no stack trace, no multi-line text.
  expect(response.body).not.toMatch(/\n|at .*\(.*:\d+:\d+\)/);
  if (code !== undefined) expect(errorCode(response)).toBe(code);
  await expectGoodClients(http.url, TOKEN);
}

describe('Host allowlist (DNS rebinding)', () => {
  it('refuses Host evil.example with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ host: `evil.example:${http.port}` })), 403);
  });

  it('refuses Host localhost.evil.example with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ host: 'localhost.evil.example' })), 403);
  });

  it('refuses a loopback Host naming another port with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ host: `localhost:${http.port + 1}` })), 403);
  });

  it('accepts configured host names and nothing that merely starts with them', async () => {
    expect((await rawHttp(http.port, modernRequest({ host: `mcp.internal:${http.port}` }))).status).toBe(200);
    await refused(await rawHttp(http.port, modernRequest({ host: 'mcp.internal.evil.example' })), 403);
    await refused(await rawHttp(http.port, modernRequest({ host: 'evil.mcp.internal' })), 403);
  });

  it('accepts localhost, 127.0.0.1 and [::1], with and without the port', async () => {
    for (const host of ['localhost', `localhost:${http.port}`, '127.0.0.1', `[::1]:${http.port}`, '[::1]']) {
      const response = await rawHttp(http.port, modernRequest({ host }));
      expect(response.status, host).toBe(200);
    }
  });
});

describe('Origin', () => {
  it('refuses Origin http://evil.example with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ origin: 'http://evil.example' })), 403);
  });

  it('refuses Origin null with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ origin: 'null' })), 403);
  });

  it('refuses a look-alike loopback origin with 403', async () => {
    await refused(await rawHttp(http.port, modernRequest({ origin: 'http://localhost.evil.example' })), 403);
    await refused(
      await rawHttp(http.port, modernRequest({ origin: 'http://localhost:1@evil.example' })),
      403,
    );
  });

  it('serves loopback origins and configured ones', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://app.example',
    ]) {
      expect((await rawHttp(http.port, modernRequest({ origin }))).status, origin).toBe(200);
    }
  });
});

describe('duplicate headers and request targets', () => {
  it('refuses two Host headers (good one first) with 400', async () => {
    const host = [`127.0.0.1:${http.port}`, 'evil.example'];
    await refused(await rawHttp(http.port, modernRequest({ host })), 400);
  });

  it('refuses two Authorization headers (good one first) with 400', async () => {
    await refused(await rawHttp(http.port, modernRequest({ authorization: [AUTH, 'Bearer wrong'] })), 400);
  });

  it('refuses an absolute-form request target with 400', async () => {
    const response = await rawHttp(http.port, { ...modernRequest(), target: 'http://evil.example:1/mcp' });
    await refused(response, 400);
  });

  it('answers 404 for another path and 405 for another method', async () => {
    await refused(await rawHttp(http.port, { ...modernRequest(), target: '/other' }), 404);
    const put = await rawHttp(http.port, { ...modernRequest(), method: 'PUT' });
    expect(put.headers.allow).toBe('GET, POST, DELETE');
    await refused(put, 405);
  });
});

describe('bearer auth', () => {
  it('refuses a request without a token with 401 and a Bearer challenge', async () => {
    const response = await rawHttp(http.port, modernRequest({ authorization: null }));
    expect(response.headers['www-authenticate']).toBe('Bearer realm="mcp"');
    await refused(response, 401);
  });

  it.each([
    ['wrong, same length', `Bearer ${'x'.repeat(TOKEN.length)}`],
    ['short', 'Bearer a'],
    ['long', `Bearer ${TOKEN}${'a'.repeat(4_000)}`],
    ['prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['other scheme', `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`],
    ['empty', 'Bearer '],
  ])('refuses a %s token with 401', async (_name, authorization) => {
    const response = await rawHttp(http.port, modernRequest({ authorization }));
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="mcp"/);
    await refused(response, 401);
  });

  it('refuses GET and DELETE without the token', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await rawHttp(http.port, {
        method,
        headers: { accept: 'text/event-stream', 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
      });
      expect(response.status, method).toBe(401);
    }
    await expectGoodClients(http.url, TOKEN);
  });

  it('refuses a legacy initialize without the token', async () => {
    await refused(await rawHttp(http.port, { body: initializeBody(), headers: {} }), 401);
  });
});

describe('body limits and JSON shape', () => {
  it('refuses a declared Content-Length over the cap with 413 before reading it', async () => {
    const text = rawRequestText(http.port, {
      ...modernRequest(),
      headers: { ...modernRequest().headers, 'content-length': String(MAX_BODY + 1) },
      body: '',
    });
    // Only the head is sent: the answer must not wait for a body.
    const response = await sendAndRead(text);
    await refused(response, 413);
  });

  it('refuses a real oversized body (Content-Length) with 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(MAX_BODY) },
    });
    await refused(await rawHttp(http.port, { ...modernRequest({}, big) }), 413);
  });

  it('refuses a chunked body without Content-Length once it passes the cap', async () => {
    const head = rawRequestText(http.port, {
      ...modernRequest({ 'content-length': null, 'transfer-encoding': 'chunked' }),
      body: '',
    });
    const response = await new Promise<RawResponse>((resolve, reject) => {
      const socket = connect(http.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let sending = true;
      const chunk = `${(8192).toString(16)}\r\n${'a'.repeat(8192)}\r\n`;
      socket.on('data', (c) => {
        chunks.push(c);
        sending = false;
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sending = false;
        try {
          resolve(parseHttpResponse(Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      });
      socket.write(head);
      // Keeps sending far past the cap until the server answers.
      const pump = async () => {
        for (let i = 0; i < 200 && sending; i++) {
          socket.write(chunk);
          await sleep(2);
        }
      };
      void pump();
    });
    await refused(response, 413);
  });

  it('serves a chunked body under the cap', async () => {
    const { body, headers } = modernRequest();
    const head = rawRequestText(http.port, {
      headers: { ...headers, 'content-length': null, 'transfer-encoding': 'chunked' },
      body: '',
    });
    const half = Math.floor(body.length / 2);
    const chunked = [body.slice(0, half), body.slice(half)]
      .map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`)
      .join('');
    const response = await sendAndRead(`${head}${chunked}0\r\n\r\n`);
    expect(response.status).toBe(200);
    expect(response.body).toContain('"text":"x"');
  });

  it('refuses JSON nested 100000 deep with 400 (no stack overflow)', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const small = await startHttpServer({ factory: echoFactory(), token: TOKEN });
    try {
      const response = await rawHttp(small.port, { ...modernRequest({}, deep) });
      expect(response.status).toBe(400);
      expect(errorCode(response)).toBe(-32600);
      await expectGoodClients(small.url, TOKEN);
    } finally {
      await small.close();
    }
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const call = JSON.parse(modernEchoCall(1, '[[[[{{{{'.repeat(40)).body) as object;
    const response = await rawHttp(http.port, modernRequest({}, JSON.stringify(call)));
    expect(response.status).toBe(200);
  });

  it('refuses invalid JSON with 400 and -32700', async () => {
    await refused(await rawHttp(http.port, modernRequest({}, '{"jsonrpc":"2.0",')), 400, -32700);
  });

  it('refuses bytes that are not UTF-8 with 400 and -32700', async () => {
    const response = await sendAndRead(
      Buffer.concat([
        Buffer.from(rawRequestText(http.port, { ...modernRequest({ 'content-length': '3' }), body: '' })),
        Buffer.from([0x22, 0xff, 0x22]),
      ]),
    );
    await refused(response, 400, -32700);
  });

  it('refuses a JSON-RPC batch on a legacy session with 400', async () => {
    const init = await rawHttp(http.port, { body: initializeBody(), headers: { authorization: AUTH } });
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toBeTruthy();
    expect(sseMessages(init)).toMatchObject([{ id: 1, result: { protocolVersion: '2025-11-25' } }]);
    const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
    const headers = { authorization: AUTH, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await refused(await rawHttp(http.port, { body: `[${ping(2)},${ping(3)}]`, headers }), 400, -32600);
    await refused(
      await rawHttp(http.port, { body: `[${initializeBody()}]`, headers: { authorization: AUTH } }),
      400,
    );
    // The session itself is untouched.
    const answer = await rawHttp(http.port, { body: ping(4), headers });
    expect(answer.status).toBe(200);
    expect(sseMessages(answer)).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
  });

  it('refuses a modern-shaped JSON-RPC batch with 400', async () => {
    await refused(
      await rawHttp(http.port, modernRequest({}, `[${modernEchoCall(1, 'a').body}]`)),
      400,
      -32600,
    );
  });

  it('refuses a body that is not an object with 400', async () => {
    await refused(await rawHttp(http.port, modernRequest({}, '"ping"')), 400, -32600);
  });
});

describe('protocol headers', () => {
  it('refuses a POST that accepts only JSON with 406', async () => {
    await refused(await rawHttp(http.port, modernRequest({ accept: 'application/json' })), 406);
  });

  it('refuses a legacy POST that accepts only JSON with 406', async () => {
    const response = await rawHttp(http.port, {
      body: initializeBody(),
      headers: { authorization: AUTH, accept: 'application/json' },
    });
    await refused(response, 406);
  });

  it('refuses a non-JSON Content-Type with 415', async () => {
    await refused(await rawHttp(http.port, modernRequest({ 'content-type': 'text/plain' })), 415);
  });

  it('refuses MCP-Protocol-Version 1999-01-01 with 400', async () => {
    await refused(await rawHttp(http.port, modernRequest({ 'mcp-protocol-version': '1999-01-01' })), 400);
  });

  it('accepts 2026-07-28 and the 2025 revisions', async () => {
    expect((await rawHttp(http.port, modernRequest())).status).toBe(200);
    const init = await rawHttp(http.port, {
      body: initializeBody(),
      headers: { authorization: AUTH, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(init.status).toBe(200);
    expect(sseMessages(init)).toMatchObject([{ id: 1, result: { protocolVersion: '2025-11-25' } }]);
  });
});
