/**
 * Attack corpus, part 3: redirects. An allowed page redirects to a blocked address (in several
 * spellings), to other schemes, to a URL with credentials, in a loop, or from https down to http.
 * Every hop passes the whole check, so the redirect target is never requested; the hop limit ends
 * a loop after 5 follows. Also: caller headers never cross origins, and proxy variables in the
 * environment are ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, expectStillWorks, OK_HOST } from './support/attack-kit.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, redirect, startServer, text } from './support/local-server.js';

let server: LocalServer;
let secure: LocalServer;
let P = 0;

beforeAll(async () => {
  server = await startServer({ '/ok': text('fine'), '/secret': text('secret'), '/plain': text('plain') });
  P = server.port;
  let n = 0;
  server.route('/loop', (_req, res) => {
    n++;
    res.writeHead(302, { location: `/loop?n=${n}` });
    res.end();
  });
  secure = await startServer({}, true);
});
afterAll(async () => {
  await server.close();
  await secure.close();
});

const dns = { [OK_HOST]: ['127.0.0.1'], 'site.test': ['127.0.0.1'], 'inner.test': ['10.0.0.5'] };

/** [redirect status, Location template (P is the local port), what the refusal says]. */
const TARGETS: ReadonlyArray<readonly [number, string, RegExp]> = [
  [302, 'http://127.0.0.1:P/secret', /Redirect from .* refused: .*loopback/],
  [301, 'file:///etc/passwd', /Redirect from .* refused: .*only http and https/],
  [307, 'http://169.254.169.254/latest/meta-data/', /link-local/],
  [308, 'http://[::ffff:7f00:1]:P/secret', /loopback/],
  [302, 'http://2130706433:P/secret', /loopback/],
  [302, 'http://0x7f.1:P/secret', /loopback/],
  [303, 'http://localhost.:P/secret', /names this machine/],
  [302, 'http://user:pw@site.test:P/secret', /user name or password/],
  [302, 'gopher://127.0.0.1:P/_x', /only http and https/],
  [302, 'data:text/plain,owned', /only http and https/],
  [302, 'http://inner.test:P/secret', /private/],
  [302, 'http://[fd00:ec2::254]/latest/meta-data/', /unique local/],
  [301, 'http://[64:ff9b::7f00:1]:P/secret', /loopback/],
  [302, 'http://[::]:P/secret', /unspecified/],
];

describe('attack corpus: redirects', () => {
  it.each(TARGETS)('refuses a %i redirect to %s', async (status, template, pattern) => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const path = `/r${status}-${template.length}`;
    server.route(path, redirect(template.replaceAll(':P', `:${P}`), status));
    const before = server.total();
    const error = await rejection(client.fetch(server.url(path, 'site.test')));
    expectRefusal(error, pattern);
    expect(server.hits('/secret')).toBe(0);
    expect(server.total()).toBe(before + 1);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('stops a 20-hop redirect loop after 5 follows', async () => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'] });
    const before = server.hits('/loop');
    const error = await rejection(client.fetch(server.url('/loop', 'site.test')));
    expectRefusal(error, /Stopped after 5 redirects/);
    expect(server.hits('/loop') - before).toBe(6);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('follows a self-redirect no more than the limit allows', async () => {
    const client = testClient({ dns, allowHosts: [OK_HOST, 'site.test'], limits: { maxRedirects: 2 } });
    server.route('/self', redirect('/self'));
    const error = await rejection(client.fetch(server.url('/self', 'site.test')));
    expectRefusal(error, /Stopped after 2 redirects/);
    expect(server.hits('/self')).toBe(3);
    await client.close();
  });

  it('refuses a downgrade from https to http and never requests the http target', async () => {
    const client = testClient({
      dns: { ...dns, 'secure.test': ['127.0.0.1'] },
      allowHosts: ['secure.test', 'site.test'],
      // A TLS handshake on a loaded 2-core machine can outlast the attack tests' 300 ms limits;
      // this test is about the redirect, not a deadline.
      limits: { connectTimeoutMs: 10_000, firstByteTimeoutMs: 10_000, totalTimeoutMs: 20_000 },
    });
    secure.route('/down', redirect(server.url('/plain', 'site.test')));
    const error = await rejection(client.fetch(secure.url('/down', 'secure.test')));
    expectRefusal(error, /from https to plain http/);
    expect(server.hits('/plain')).toBe(0);
    expect(secure.hits('/down')).toBe(1);
    await client.close();
  });

  it('strips Authorization, Cookie and custom headers on a redirect to another origin', async () => {
    const client = testClient({
      dns: { ...dns, 'other.test': ['127.0.0.1'] },
      allowHosts: ['site.test', 'other.test'],
    });
    server.route('/hop', redirect(server.url('/plain', 'other.test')));
    const headers = { Authorization: 'Basic c2VjcmV0', Cookie: 'session=1', 'X-Token': 't' };
    await client.fetch(server.url('/hop', 'site.test'), { headers });
    expect(server.lastHeaders('/hop')?.authorization).toBe('Basic c2VjcmV0');
    const seen = server.lastHeaders('/plain');
    expect(seen?.authorization).toBeUndefined();
    expect(seen?.cookie).toBeUndefined();
    expect(seen?.['x-token']).toBeUndefined();
    await client.close();
  });

  it('strips caller headers for good once the chain left the first origin, even if it returns', async () => {
    const client = testClient({
      dns: { ...dns, 'other.test': ['127.0.0.1'] },
      allowHosts: ['site.test', 'other.test'],
    });
    server.route('/away', redirect(server.url('/back', 'other.test')));
    server.route('/back', redirect(server.url('/plain', 'site.test')));
    await client.fetch(server.url('/away', 'site.test'), { headers: { authorization: 'Bearer x' } });
    expect(server.lastHeaders('/plain')?.authorization).toBeUndefined();
    await client.close();
  });

  it('ignores proxy variables in the environment', async () => {
    const proxy = await startServer({});
    const saved = { ...process.env };
    for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      process.env[name] = proxy.url('/');
    process.env.NODE_USE_ENV_PROXY = '1';
    try {
      const client = testClient({ dns, allowHosts: [OK_HOST] });
      await expectStillWorks(client, server);
      await client.close();
      expect(proxy.total()).toBe(0);
    } finally {
      process.env = saved;
      await proxy.close();
    }
  });
});
