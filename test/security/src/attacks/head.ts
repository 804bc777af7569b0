/**
 * Attacks on the request head: DNS rebinding through Host, cross-site Origin, requests a proxy
 * and this server could read differently (seen with SDK 2.4, request smuggling), oversized
 * heads, and the wrong path or method.
 */
import { randomUUID } from 'node:crypto';
import { sendRaw } from '../raw.js';
import { editHeaders, modernPost } from '../requests.js';
import { type Attack, post } from './attack.js';

export const HEAD_ATTACKS: Attack[] = [
  // DNS rebinding: the Host names a host that is not this loopback server.
  {
    name: 'Host evil.example:PORT',
    status: 403,
    send: (at) => post({ host: `evil.example:${at.port}` })(at),
  },
  { name: 'Host localhost.evil.example', status: 403, send: post({ host: 'localhost.evil.example' }) },
  { name: 'Host 127.0.0.1.evil.example', status: 403, send: post({ host: '127.0.0.1.evil.example' }) },
  {
    name: 'Host localhost on another port',
    status: 403,
    send: (at) => post({ host: `localhost:${at.port + 1}` })(at),
  },
  { name: 'no Host header', status: 400, send: post({ host: null }) },
  // Cross-site requests from a browser.
  { name: 'Origin http://evil.example', status: 403, send: post({ origin: 'http://evil.example' }) },
  { name: 'Origin null', status: 403, send: post({ origin: 'null' }) },
  {
    name: 'Origin http://localhost.evil.example',
    status: 403,
    send: post({ origin: 'http://localhost.evil.example' }),
  },
  { name: 'Origin with userinfo', status: 403, send: post({ origin: 'http://localhost@evil.example' }) },
  // Ambiguous requests that a proxy and this server could read differently (seen with SDK 2.4).
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
  // Framing that a proxy in front could read differently (request smuggling), and oversized heads.
  {
    name: 'Content-Length and Transfer-Encoding together',
    status: 400,
    send: post({ 'transfer-encoding': 'chunked' }),
  },
  {
    name: 'two different Content-Length headers',
    status: 400,
    send: (at) => post({ 'content-length': [String(modernPost(at).body?.length ?? 0), '1'] })(at),
  },
  { name: 'a 64 KiB header', status: 431, send: post({ 'x-padding': 'p'.repeat(64 * 1024) }) },
  {
    name: 'HTTP/1.0 without a Host header',
    status: 403,
    send: (at) => sendRaw(at.port, { ...modernPost(at, { host: null }), version: 'HTTP/1.0' }),
  },
  {
    name: 'a second Origin header',
    status: 400,
    send: post({ origin: ['http://localhost', 'http://evil.example'] }),
  },
  {
    name: 'a second Mcp-Session-Id header',
    status: 400,
    send: post({ 'mcp-session-id': [randomUUID(), randomUUID()] }),
  },
  {
    name: 'a CORS preflight from another origin',
    status: 403,
    check: (response) => {
      if (response.headers['access-control-allow-origin'] !== undefined) throw new Error('CORS granted');
    },
    send: (at) =>
      sendRaw(at.port, {
        method: 'OPTIONS',
        headers: editHeaders({
          host: `127.0.0.1:${at.port}`,
          origin: 'http://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
          'access-control-request-private-network': 'true',
          connection: 'close',
        }),
      }),
  },
  {
    name: 'wrong path /other',
    status: 404,
    send: (at) => sendRaw(at.port, { ...modernPost(at), target: '/other' }),
  },
  {
    name: 'PUT',
    status: 405,
    check: (response) => {
      if (!/POST/.test(response.headers.allow ?? ''))
        throw new Error('405 without an Allow header naming POST');
    },
    send: (at) => sendRaw(at.port, { ...modernPost(at), method: 'PUT' }),
  },
];
