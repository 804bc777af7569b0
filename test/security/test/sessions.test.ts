/**
 * 2025-era session attacks: a terminated id, a
 * guessed neighbour id, an id replayed without (or with the wrong) bearer, and a batch smuggled
 * into a live session. A session id is never a credential, and a refused attempt never harms the
 * session it named.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBin, startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { type Fixture, SERVERS } from '../src/servers.js';
import { type Credential, openSession, postOnSession, sessionRequest } from '../src/sessions.js';

const TOKEN = randomBytes(24).toString('hex');
const GOOD: Credential = { bearer: TOKEN };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The id with its last hex digit changed: what a client guessing sequential ids would try. */
function neighbour(id: string): string {
  const last = Number.parseInt(id.slice(-1), 16);
  return `${id.slice(0, -1)}${((last + 1) % 16).toString(16)}`;
}

describe.each(SERVERS)('$name', (server) => {
  let fixture: Fixture;
  let bin: RunningBin | undefined;
  const running = () => {
    if (bin === undefined) throw new Error('the bin did not start');
    return bin;
  };

  beforeAll(async () => {
    fixture = await server.fixture();
    bin = await startBin(server, fixture.args, TOKEN);
  });

  afterAll(async () => {
    const code = await bin?.stop();
    await fixture?.cleanup();
    expect(code).toBe(0);
  });

  it('answers 404 to every method on a session id after DELETE', async () => {
    const { url } = running();
    const id = await openSession(url, GOOD);
    expect(await postOnSession(url, id, GOOD)).toBe(200);
    expect(await sessionRequest(url, 'DELETE', id, GOOD)).toBe(200);
    expect(await postOnSession(url, id, GOOD)).toBe(404);
    expect(await sessionRequest(url, 'GET', id, GOOD)).toBe(404);
    expect(await sessionRequest(url, 'DELETE', id, GOOD)).toBe(404);
    await expectGoodClients(running(), server.tool);
  });

  it('issues random v4 UUIDs, and a neighbouring id answers 404', async () => {
    const { url } = running();
    const a = await openSession(url, GOOD);
    const b = await openSession(url, GOOD);
    expect(a).toMatch(UUID_V4);
    expect(b).toMatch(UUID_V4);
    expect(a).not.toBe(b);
    expect(await postOnSession(url, neighbour(a), GOOD)).toBe(404);
    expect(await postOnSession(url, a, GOOD)).toBe(200);
    await Promise.all([a, b].map((id) => sessionRequest(url, 'DELETE', id, GOOD)));
    await expectGoodClients(running(), server.tool);
  });

  it('refuses a live session id presented without the bearer with 401', async () => {
    const { url } = running();
    const id = await openSession(url, GOOD);
    expect(await postOnSession(url, id, 'none')).toBe(401);
    expect(await sessionRequest(url, 'GET', id, 'none')).toBe(401);
    expect(await sessionRequest(url, 'DELETE', id, 'none')).toBe(401);
    // The refused DELETE ended nothing: the owner still uses the session.
    expect(await postOnSession(url, id, GOOD)).toBe(200);
    expect(await sessionRequest(url, 'DELETE', id, GOOD)).toBe(200);
    await expectGoodClients(running(), server.tool);
  });

  it('refuses a live session id presented with a wrong bearer with 401', async () => {
    const { url } = running();
    const id = await openSession(url, GOOD);
    const wrong: Credential = { bearer: randomBytes(24).toString('hex') };
    expect(await postOnSession(url, id, wrong)).toBe(401);
    expect(await sessionRequest(url, 'DELETE', id, wrong)).toBe(401);
    expect(await postOnSession(url, id, GOOD)).toBe(200);
    expect(await sessionRequest(url, 'DELETE', id, GOOD)).toBe(200);
    await expectGoodClients(running(), server.tool);
  });

  it('refuses a JSON-RPC batch on a live session with 400 and keeps the session', async () => {
    const { url } = running();
    const id = await openSession(url, GOOD);
    const ping = (n: number) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'ping' });
    expect(await postOnSession(url, id, GOOD, `[${ping(3)},${ping(4)}]`)).toBe(400);
    expect(await postOnSession(url, id, GOOD, ping(5))).toBe(200);
    expect(await sessionRequest(url, 'DELETE', id, GOOD)).toBe(200);
    await expectGoodClients(running(), server.tool);
  });
});
