/**
 * Secrets never reach the log (Authorization and tokens are redacted), even at `--log-level debug`, where every request is logged: not the configured token,
 * not a wrong one an attacker tried, not a token smuggled into the query string.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { sendRaw } from '../src/raw.js';
import { modernPost } from '../src/requests.js';
import { SERVERS } from '../src/servers.js';

describe.each(SERVERS)('$name', (server) => {
  it('keeps the good token, wrong tokens and query-string secrets out of its debug log', async () => {
    const token = `good-${randomBytes(16).toString('hex')}`;
    const wrong = `wrong-${randomBytes(16).toString('hex')}`;
    const inQuery = `query-${randomBytes(16).toString('hex')}`;
    const fixture = await server.fixture();
    const bin = await startBin(server, fixture.args, token, ['--log-level', 'debug']);
    try {
      await expectGoodClients(bin, server.tool);
      expect((await sendRaw(bin.port, modernPost(bin, { authorization: `Bearer ${wrong}` }))).status).toBe(
        401,
      );
      const basic = `Basic ${Buffer.from(`user:${wrong}`).toString('base64')}`;
      expect((await sendRaw(bin.port, modernPost(bin, { authorization: basic }))).status).toBe(401);
      const query = { ...modernPost(bin), target: `/mcp?access_token=${inQuery}` };
      expect((await sendRaw(bin.port, query)).status).toBe(200);
    } finally {
      const code = await bin.stop();
      await fixture.cleanup();
      expect(code).toBe(0);
    }
    const log = bin.stderr();
    // The log did record requests, so silence is not what kept the secrets out.
    expect(log).toMatch(/POST \/mcp 401/);
    for (const secret of [token, wrong, inQuery, Buffer.from(`user:${wrong}`).toString('base64')]) {
      expect(log).not.toContain(secret);
    }
  });
});
