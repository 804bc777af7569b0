/**
 * A page on a name that resolves to a blocked address: robots.txt is fetched first, through the
 * same guard, and is refused where the connection is made. The user must hear that refusal (the
 * address is off limits), not a robots.txt "try again later" that no retry can fix. The refusal
 * is not cached: the next call resolves the name again. A robots.txt that redirects to a refused
 * host stays "could not be read": the page's own host was not the one refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, createAddressPolicy } from '../src/net/address-policy.js';
import { RobotsChecker } from '../src/robots/robots-checker.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, redirect, startServer, text } from './support/local-server.js';
import { ERAS, expectSentence, type ToolsFixture, toolsFixture } from './support/tools-kit.js';

/** Names the stub resolves to 127.0.0.1; only site.test is allowed. */
const DNS = { 'site.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] };
const REFUSED =
  /^Refused to fetch from 127\.0\.0\.1 \(resolved from "evil\.test"\): it is a loopback address;/;

let server: LocalServer;
beforeAll(async () => {
  server = await startServer({ '/robots.txt': text('User-agent: *\nAllow: /\n', 'text/plain') });
});
afterAll(() => server.close());

function checker() {
  const client = testClient({ dns: DNS, allowHosts: ['site.test'] });
  const robots = new RobotsChecker({ client, policy: createAddressPolicy({ hosts: ['site.test'] }) });
  return { client, robots };
}

describe('robots.txt on a host the address policy refuses', () => {
  it('passes the refusal on instead of calling robots.txt unreachable', async () => {
    const { client, robots } = checker();
    const before = server.total();
    const error = await rejection(robots.check(server.url('/page', 'evil.test')));
    expect(error).toBeInstanceOf(AddressRefused);
    expect(error.message).toMatch(REFUSED);
    expect(error.message).not.toMatch(/robots\.txt|try again later/);
    // Refused at the connection: the local server never saw robots.txt asked for.
    expect(server.total()).toBe(before);
    await client.close();
  });

  it('resolves the name again on the next call rather than caching the refusal', async () => {
    const { client, robots } = checker();
    await rejection(robots.assertAllowed(server.url('/one', 'evil.test')));
    const lookups = client.resolver.lookups.filter((name) => name === 'evil.test').length;
    const again = await rejection(robots.assertAllowed(server.url('/two', 'evil.test')));
    expect(again.message).toMatch(REFUSED);
    expect(client.resolver.lookups.filter((name) => name === 'evil.test').length).toBe(lookups + 1);
    await client.close();
  });

  it('still calls a robots.txt that redirects to a refused host unreadable', async () => {
    server.route('/robots.txt', redirect(server.url('/robots.txt', 'evil.test')));
    const { client, robots } = checker();
    const verdict = await robots.check(server.url('/page', 'site.test'));
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(/robots\.txt could not be read \(Refused to fetch from 127\.0\.0\.1/);
    expect(verdict.reason).toMatch(/try again later/);
    await client.close();
    server.route('/robots.txt', text('User-agent: *\nAllow: /\n', 'text/plain'));
  });

  it('keeps the verdicts of reachable hosts unchanged', async () => {
    const { client, robots } = checker();
    expect((await robots.check(server.url('/page', 'site.test'))).allowed).toBe(true);
    await client.close();
  });
});

describe.each(ERAS)('the fetch tools on a name that resolves to a blocked address, %s era', (era) => {
  let fx: ToolsFixture;
  afterEach(() => fx.close());

  it.each(['fetch', 'fetch_links', 'fetch_image', 'research'])(
    '%s answers with the refusal',
    async (tool) => {
      fx = await toolsFixture(era, { dns: { 'evil.test': ['127.0.0.1'] } });
      const before = fx.server.total();
      const args = tool === 'research' ? { question: 'Anything?' } : {};
      const { result, text: message } = await fx.call(tool, { url: fx.url('/alpha', 'evil.test'), ...args });
      expectSentence(result, REFUSED);
      expect(message).not.toMatch(/robots\.txt|try again later/);
      expect(fx.server.total()).toBe(before);
      // The server keeps serving allowed pages.
      const ok = await fx.call('fetch', { url: fx.url('/alpha') });
      expect(ok.result.isError, ok.text).toBeFalsy();
    },
  );
});
