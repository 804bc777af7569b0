/**
 * A client opening 2025-era sessions without end (with SDK 2.4, the bare SDK kept 1,000 of
 * them alive). The runner caps the table and evicts the least recently used session, so the flood
 * costs the server a bounded amount, the newest sessions work, and good clients still get in.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBin, startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { type Fixture, SERVERS } from '../src/servers.js';
import { type Credential, openSession, postOnSession } from '../src/sessions.js';

const TOKEN = randomBytes(24).toString('hex');
const GOOD: Credential = { bearer: TOKEN };
/** Well past the runner's default cap of 100 sessions. */
const FLOOD = 160;
const BATCH = 20;

describe.each(SERVERS)('$name', (server) => {
  let fixture: Fixture;
  let bin: RunningBin | undefined;

  beforeAll(async () => {
    fixture = await server.fixture();
    bin = await startBin(server, fixture.args, TOKEN);
  });

  afterAll(async () => {
    const code = await bin?.stop();
    await fixture?.cleanup();
    expect(code).toBe(0);
  });

  it(`survives ${FLOOD} sessions that are never closed, evicting the oldest`, async () => {
    if (bin === undefined) throw new Error('the bin did not start');
    const { url } = bin;
    const ids: string[] = [];
    for (let i = 0; i < FLOOD; i += BATCH) {
      ids.push(...(await Promise.all(Array.from({ length: BATCH }, () => openSession(url, GOOD)))));
    }
    expect(new Set(ids).size).toBe(FLOOD);
    // The first sessions made room for later ones; the last is alive.
    expect(await postOnSession(url, ids[0] as string, GOOD)).toBe(404);
    expect(await postOnSession(url, ids.at(-1) as string, GOOD)).toBe(200);
    await expectGoodClients(bin, server.tool);
  });
});
