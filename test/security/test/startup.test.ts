/**
 * Fail closed on configuration: a bind beyond loopback without a bearer token, or with a token that is empty or
 * blank, must refuse to start, exit non-zero and say why; it must never print a listening URL.
 */
import { describe, expect, it } from 'vitest';
import { binEnv, runToExit, TOKEN_ENV } from '../src/bins.js';
import { SERVERS } from '../src/servers.js';

interface Refusal {
  name: string;
  host: string;
  env: Record<string, string>;
  /** What stderr must say. */
  why: RegExp;
}

const REFUSALS: Refusal[] = [
  { name: '--host 0.0.0.0 without a token', host: '0.0.0.0', env: {}, why: /bearer token/i },
  { name: '--host :: without a token', host: '::', env: {}, why: /bearer token/i },
  { name: '--host 192.0.2.1 without a token', host: '192.0.2.1', env: {}, why: /bearer token/i },
  {
    name: '--host 0.0.0.0 with an empty token',
    host: '0.0.0.0',
    env: { [TOKEN_ENV]: '' },
    why: /bearer token/i,
  },
  { name: 'a blank token on loopback', host: '127.0.0.1', env: { [TOKEN_ENV]: '   ' }, why: /token/i },
];

describe.each(SERVERS)('$name', (server) => {
  it.concurrent.each(REFUSALS)('refuses to start: $name', async ({ host, env, why }) => {
    const fixture = await server.fixture();
    try {
      const run = await runToExit(
        server,
        ['--transport', 'http', '--host', host, '--port', '0', ...fixture.args],
        binEnv(env),
      );
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      expect(run.stderr).toMatch(why);
      expect(run.stderr).not.toMatch(/listening on/);
      // One clear sentence, not a stack trace.
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await fixture.cleanup();
    }
  });
});
