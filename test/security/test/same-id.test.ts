/**
 * Clients that reuse the same JSON-RPC id at the same moment must each get their own answer
 * (CVE-2026-25536: a shared transport leaked responses
 * across clients). The calls read different files, so a crossed answer names the wrong fruit.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerIn, type JsonRpcAnswer, resultText } from '../src/answers.js';
import { type RunningBin, startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { sendRaw } from '../src/raw.js';
import { LEGACY, modernMessage, modernPost } from '../src/requests.js';
import { type Fixture, type ReadCall, SERVERS } from '../src/servers.js';
import { type Credential, openSession, sessionRequest } from '../src/sessions.js';

const TOKEN = randomBytes(24).toString('hex');
const SAME_ID = 7;
/** Calls in flight at once per round, alternating between the two reads. */
const WIDTH = 8;
const ROUNDS = 3;

/** Checks each answer against the call it was sent for. */
function expectOwnAnswers(calls: ReadCall[], answers: (JsonRpcAnswer | undefined)[]): void {
  answers.forEach((answer, i) => {
    const call = calls[i % calls.length] as ReadCall;
    const other = calls[(i + 1) % calls.length] as ReadCall;
    expect(answer?.id).toBe(SAME_ID);
    expect(answer?.result?.isError ?? false).toBe(false);
    expect(resultText(answer)).toContain(call.expect);
    expect(resultText(answer)).not.toContain(other.expect);
  });
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

  it('keeps 2026-era answers apart when every client uses the same id at once', async () => {
    const at = running();
    for (let round = 0; round < ROUNDS; round++) {
      const answers = await Promise.all(
        Array.from({ length: WIDTH }, async (_, i) => {
          const call = fixture.reads[i % 2] as ReadCall;
          const message = modernMessage(SAME_ID, 'tools/call', {
            name: call.tool,
            arguments: call.arguments,
          });
          // Each call on its own socket: separate clients, not one client's pipeline.
          const response = await sendRaw(at.port, modernPost(at, message.headers, message.body));
          expect(response.status).toBe(200);
          return answerIn(response.headers['content-type'], response.body);
        }),
      );
      expectOwnAnswers(fixture.reads, answers);
    }
    await expectGoodClients(at, server.tool);
  });

  it('keeps 2025-era answers apart across sessions using the same id at once', async () => {
    const at = running();
    const credential: Credential = { bearer: TOKEN };
    const sessions = await Promise.all(Array.from({ length: WIDTH }, () => openSession(at.url, credential)));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await Promise.all(
          sessions.map(async (id, i) => {
            const call = fixture.reads[i % 2] as ReadCall;
            const response = await fetch(at.url, {
              method: 'POST',
              headers: {
                accept: 'application/json, text/event-stream',
                'content-type': 'application/json',
                authorization: `Bearer ${TOKEN}`,
                'mcp-session-id': id,
                'mcp-protocol-version': LEGACY,
              },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: SAME_ID,
                method: 'tools/call',
                params: { name: call.tool, arguments: call.arguments },
              }),
            });
            expect(response.status).toBe(200);
            return answerIn(response.headers.get('content-type') ?? undefined, await response.text());
          }),
        );
        expectOwnAnswers(fixture.reads, answers);
      }
    } finally {
      await Promise.all(sessions.map((id) => sessionRequest(at.url, 'DELETE', id, credential)));
    }
    await expectGoodClients(at, server.tool);
  });
});
