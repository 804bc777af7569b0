/**
 * robots.txt: rules for our product token and `*`, the status decisions (401/403 disallowed,
 * other 4xx allowed, 429/5xx/timeout unreachable and disallowed by default), the per-origin
 * cache, its own short timeout, the guard applied to robots.txt itself and its redirects, and
 * the bound on a robots.txt too costly to evaluate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../src/net/address-policy.js';
import { RobotsChecker, type RobotsOptions } from '../src/robots/robots-checker.js';
import { isAllowedBy, parseRobots } from '../src/robots/robots-rules.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, redirect, startServer, text } from './support/local-server.js';

let server: LocalServer;
const robotsBody =
  'User-agent: *\nDisallow: /private\n\nUser-agent: ModelContextProtocol\nDisallow: /no-agents\n';
let status = 200;

beforeAll(async () => {
  server = await startServer({
    '/robots.txt': (_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? robotsBody : 'error page');
    },
  });
});
afterAll(() => server.close());

const HOSTS = ['site.test', 'hang.test', 'moved.test', 'fresh.test'];

function checker(extra: Partial<RobotsOptions> = {}) {
  const dns = Object.fromEntries(HOSTS.map((host) => [host, ['127.0.0.1']]));
  const client = testClient({ dns, allowHosts: HOSTS });
  const policy = createAddressPolicy({ hosts: HOSTS });
  return { client, robots: new RobotsChecker({ client, policy, timeoutMs: 300, ...extra }) };
}

describe('robots.txt rules', () => {
  it('applies the group of our product token, else *', async () => {
    status = 200;
    const { client, robots } = checker();
    expect((await robots.check(server.url('/page', 'site.test'))).allowed).toBe(true);
    const agents = await robots.check(server.url('/no-agents/x', 'site.test'));
    expect(agents.allowed).toBe(false);
    expect(agents.reason).toMatch(/does not allow autonomous fetching/);
    // Our group replaces `*`, so /private is allowed for us.
    expect((await robots.check(server.url('/private', 'site.test'))).allowed).toBe(true);
    const other = new RobotsChecker({
      client,
      policy: createAddressPolicy({ hosts: HOSTS }),
      userAgent: 'OtherBot/2',
    });
    expect((await other.check(server.url('/private', 'site.test'))).allowed).toBe(false);
    await expect(robots.assertAllowed(server.url('/no-agents', 'site.test'))).rejects.toThrow(/robots.txt/);
    await client.close();
  });

  it('fetches robots.txt once per origin and caches it', async () => {
    status = 200;
    const { client, robots } = checker();
    const before = server.hits('/robots.txt');
    await Promise.all([1, 2, 3].map((n) => robots.check(server.url(`/p${n}`, 'fresh.test'))));
    await robots.check(server.url('/p4', 'fresh.test'));
    expect(server.hits('/robots.txt') - before).toBe(1);
    await client.close();
  });

  it.each([
    [401, false],
    [403, false],
    [404, true],
    [410, true],
    [429, false],
    [500, false],
    [503, false],
  ])('treats status %i as allowed=%s', async (code, allowed) => {
    status = code;
    const { client, robots } = checker();
    expect((await robots.check(server.url('/page', 'site.test'))).allowed).toBe(allowed);
    await client.close();
    status = 200;
  });

  it('allows on an unreachable robots.txt when configured to', async () => {
    status = 503;
    const { client, robots } = checker({ onUnreachable: 'allow' });
    const verdict = await robots.check(server.url('/page', 'site.test'));
    expect(verdict.allowed).toBe(true);
    expect(verdict.reason).toMatch(/allowed by configuration/);
    await client.close();
    status = 200;
  });

  // The reason names the 200 ms timeout, which is what proves it fired; a checker without it
  // would wait on the silent server, left to the generous test timeout.
  it('gives up on a silent robots.txt after its own timeout, as unreachable', {
    timeout: 30_000,
  }, async () => {
    server.route('/robots.txt', () => undefined);
    const { client, robots } = checker({ timeoutMs: 200 });
    const verdict = await robots.check(server.url('/page', 'hang.test'));
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(/could not be read \(.*took longer than 200 ms/);
    await client.close();
    server.route('/robots.txt', text(robotsBody, 'text/plain'));
  });

  it('refuses a page whose origin is blocked, without fetching robots.txt', async () => {
    const { client, robots } = checker();
    const before = server.total();
    const error = await rejection(robots.check(`http://127.0.0.1:${server.port}/page`));
    expect(error.message).toMatch(/loopback/);
    expect(server.total()).toBe(before);
    await client.close();
  });

  it('treats a robots.txt redirect to a blocked address as unreachable, never following it', async () => {
    server.route('/robots.txt', redirect(`http://169.254.169.254/robots.txt`));
    const { client, robots } = checker();
    const verdict = await robots.check(server.url('/page', 'moved.test'));
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(/could not be read/);
    await client.close();
    server.route('/robots.txt', text(robotsBody, 'text/plain'));
  });

  it('bounds the cost of a hostile robots.txt with a long URL', () => {
    const hostile = `User-agent: *\n${'Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n'.repeat(10_000)}`;
    const parsed = parseRobots('https://x.example/robots.txt', hostile);
    // The costly step is the matcher's: count the URLs it is asked about instead of timing them.
    const matched: string[] = [];
    const rules = {
      ...parsed,
      robot: {
        isAllowed(u: string, ua?: string) {
          matched.push(u);
          return parsed.robot.isAllowed(u, ua);
        },
      },
    };
    const long = `https://x.example/${'a'.repeat(8_000)}`;
    expect(isAllowedBy(rules, long, 'Bot')).toBeUndefined();
    expect(matched).toEqual([]);
    expect(isAllowedBy(rules, 'https://x.example/short', 'Bot')).toBe(true);
    expect(matched).toEqual(['https://x.example/short']);
  });
});
