/**
 * Bearer-token attacks (the spec's Streamable HTTP security guidance: authenticate every connection): missing, wrong, and of
 * another length (the comparison must not leak it), another scheme, and two Authorization
 * headers that a proxy and this server could pick differently (seen with SDK 2.4).
 */
import { sendRaw } from '../raw.js';
import { type Endpoint, modernPost } from '../requests.js';
import { type Attack, post } from './attack.js';

/** The good request with its token replaced by `token(good)`. */
const bearer = (token: (good: string) => string) => (at: Endpoint) =>
  sendRaw(at.port, modernPost(at, { authorization: `Bearer ${token(at.token ?? '')}` }));

export const AUTH_ATTACKS: Attack[] = [
  { name: 'no bearer', tokenOnly: true, status: 401, send: post({ authorization: null }) },
  {
    name: 'wrong bearer of the same length',
    tokenOnly: true,
    status: 401,
    send: bearer((t) => 'x'.repeat(t.length)),
  },
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
];
