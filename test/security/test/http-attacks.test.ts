/**
 * Every attack of the table against every server's HTTP bin, once as shipped (loopback, no token)
 * and once with `MCPKIT_TOKEN` set. Each case asserts the status (and code where fixed), that the
 * refusal is one line with no stack trace, and that good clients of both eras are served after it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../src/answers.js';
import { ATTACKS, goodRequest } from '../src/attacks/index.js';
import { type RunningBin, startBin } from '../src/bins.js';
import { expectGoodClients } from '../src/good-client.js';
import { type Fixture, SERVERS } from '../src/servers.js';

const TOKEN = randomBytes(24).toString('hex');

describe.each(SERVERS)('$name', (server) => {
  let fixture: Fixture;
  const bins: Record<'open' | 'token', RunningBin | undefined> = { open: undefined, token: undefined };

  beforeAll(async () => {
    fixture = await server.fixture();
    const [open, token] = await Promise.all([
      startBin(server, fixture.args),
      startBin(server, fixture.args, TOKEN),
    ]);
    bins.open = open;
    bins.token = token;
  });

  afterAll(async () => {
    // Exit code 0 on SIGTERM: no attack left the process crashed or wedged.
    const codes = await Promise.all([bins.open?.stop(), bins.token?.stop()]);
    await fixture?.cleanup();
    expect(codes).toEqual([0, 0]);
  });

  describe.each(['open', 'token'] as const)('%s', (mode) => {
    const bin = () => {
      const running = bins[mode];
      if (running === undefined) throw new Error(`the ${mode} bin did not start`);
      return running;
    };

    it('serves the unmodified request every attack starts from', async () => {
      const response = await goodRequest(bin());
      expect(response.status).toBe(200);
      expect(response.body).toContain(server.tool);
      // No CORS unless configured, and never a wildcard.
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    const attacks = ATTACKS.filter((attack) => mode === 'token' || !attack.tokenOnly);
    it.each(attacks)('$name → $status', async (attack) => {
      const response = await attack.send(bin(), server);
      expect(response.status).toBe(attack.status);
      if (attack.code !== undefined) expect(errorCode(response.json)).toBe(attack.code);
      if (attack.status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
      attack.check?.(response);
      // A refusal is one short line: no stack trace, no path of the host.
      expect(response.body).not.toMatch(/\n\s*at |node:internal|\/tmp\//);
      expect(response.body.length).toBeLessThan(1_000);
      await expectGoodClients(bin(), server.tool);
    });
  });
});
