/**
 * JSON bodies carrying `__proto__` and `constructor.prototype` keys, in the tool arguments, the
 * params and the `_meta` envelope. `JSON.parse` makes them own keys; a careless merge downstream
 * would turn them into properties of every object in the process. After each payload the server
 * must answer a plain read correctly: not cut short, not flagged by an inherited property. A payload
 * that adds an unknown key to the arguments may instead be refused as invalid (tools reject
 * unknown arguments); what it may never do is change how anything else is answered.
 */
import { randomBytes } from 'node:crypto';
import { connect } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerIn, resultText } from '../src/answers.js';
import { type RunningBin, startBin } from '../src/bins.js';
import { sendRaw } from '../src/raw.js';
import { envelope, MODERN, modernPost } from '../src/requests.js';
import { type Fixture, type ReadCall, SERVERS } from '../src/servers.js';

const TOKEN = randomBytes(24).toString('hex');

/** Properties whose inherited value would visibly change how a call is answered. */
const POISON = { isError: true, readOnly: true, outputLimitBytes: 1, polluted: 'yes' };

/** Body texts; written by hand because an object literal's `__proto__` would not be an own key. */
function payloads(call: ReadCall): [string, string][] {
  const args = JSON.stringify(call.arguments).slice(1, -1);
  const poison = JSON.stringify(POISON);
  const meta = JSON.stringify(envelope()).slice(1, -1);
  const body = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${params}}}`;
  const name = `"name":${JSON.stringify(call.tool)}`;
  return [
    ['__proto__ in arguments', body(`${name},"arguments":{${args},"__proto__":${poison}},"_meta":{${meta}}`)],
    [
      'constructor.prototype in arguments',
      body(`${name},"arguments":{${args},"constructor":{"prototype":${poison}}},"_meta":{${meta}}`),
    ],
    ['__proto__ in params', body(`${name},"arguments":{${args}},"__proto__":${poison},"_meta":{${meta}}`)],
    ['__proto__ in _meta', body(`${name},"arguments":{${args}},"_meta":{${meta},"__proto__":${poison}}`)],
  ];
}

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

  it('answers plain reads correctly in both eras after prototype-pollution payloads', async () => {
    if (bin === undefined) throw new Error('the bin did not start');
    const [alpha, beta] = fixture.reads;
    for (const [what, body] of payloads(alpha)) {
      const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': alpha.tool };
      const response = await sendRaw(bin.port, modernPost(bin, headers, body));
      // Served or refused as invalid, but never a server fault; when served, served right.
      expect([200, 400], what).toContain(response.status);
      expect(response.body, what).not.toContain('polluted');
      if (response.status === 200) {
        const answer = answerIn(response.headers['content-type'], response.body);
        if (answer?.result?.isError) expect(resultText(answer), what).toMatch(/unrecognized key/i);
        else expect(resultText(answer), what).toContain(alpha.expect);
      }
    }
    for (const era of ['legacy', 'modern'] as const) {
      const session = await connect(undefined, {
        era,
        transport: { http: bin.url, headers: { authorization: `Bearer ${TOKEN}` } },
      });
      try {
        const result = await session.callTool(beta.tool, beta.arguments);
        expect(result.isError ?? false, era).toBe(false);
        expect(JSON.stringify(result.content), era).toContain(beta.expect);
        expect(JSON.stringify(result), era).not.toContain('polluted');
      } finally {
        await session.close();
      }
    }
  });
});
