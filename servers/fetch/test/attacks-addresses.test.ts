/**
 * Attack corpus, part 1: URLs that name a blocked address or this machine directly (every literal
 * spelling SECURITY.md lists, IPv6 forms that embed a blocked IPv4 address, local names), URLs
 * with credentials and other schemes. Each must be refused before anything is dialled or
 * resolved: the local server on 127.0.0.1 counts zero requests and the DNS stub zero lookups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddressPolicy } from '../src/net/address-policy.js';
import { guardedConnector } from '../src/net/guarded-agent.js';
import { expectRefusal, expectStillWorks, OK_HOST } from './support/attack-kit.js';
import { rejection, testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';

let server: LocalServer;
let P = 0;

beforeAll(async () => {
  server = await startServer({ '/ok': text('fine'), '/secret': text('secret') });
  P = server.port;
});
afterAll(() => server.close());

/** [URL template (P is the local port), what the refusal says]. */
const LITERALS: ReadonlyArray<readonly [string, RegExp]> = [
  ['http://127.0.0.1:P/secret', /loopback/],
  ['http://127.1:P/secret', /loopback/],
  ['http://0:P/secret', /unspecified/],
  ['http://0.0.0.0:P/secret', /unspecified/],
  ['http://2130706433:P/secret', /loopback/],
  ['http://0x7f000001:P/secret', /loopback/],
  ['http://0177.0.0.1:P/secret', /loopback/],
  ['http://0x7f.0.0.1:P/secret', /loopback/],
  ['http://127.0.0.2:P/secret', /loopback/],
  ['https://127.0.0.1:P/secret', /loopback/],
  ['http://[::1]:P/secret', /loopback/],
  ['http://[0:0:0:0:0:0:0:1]:P/secret', /loopback/],
  ['http://[::]:P/secret', /unspecified/],
  ['http://[::ffff:127.0.0.1]:P/secret', /loopback/],
  ['http://[::ffff:7f00:1]:P/secret', /loopback/],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]:P/secret', /loopback/],
  ['http://[::127.0.0.1]:P/secret', /IPv4-compatible/],
  ['http://[::ffff:0:7f00:1]:P/secret', /loopback/],
  ['http://[64:ff9b::7f00:1]:P/secret', /loopback/],
  ['http://[2002:7f00:1::]:P/secret', /loopback/],
  ['http://[::ffff:a9fe:a9fe]/latest/meta-data/', /link-local/],
  ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data/', /link-local/],
  ['http://[2002:a9fe:a9fe::1]/latest/meta-data/', /link-local/],
  ['http://[fd00:ec2::254]/latest/meta-data/', /unique local/],
  ['http://169.254.169.254/latest/meta-data/', /link-local/],
  ['http://100.100.100.200/latest/meta-data/', /carrier-grade/],
  ['http://168.63.129.16/machine?comp=goalstate', /WireServer/],
  ['http://10.0.0.1/', /private/],
  ['http://172.16.5.4/', /private/],
  ['http://192.168.1.1/', /private/],
  ['http://[fe80::1]/', /link-local/],
  ['http://224.0.0.1/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://198.18.0.1/', /benchmarking/],
  ['http://192.0.2.1/', /documentation/],
  ['http://[2001:db8::1]/', /IETF|documentation/],
];

const NAMES: ReadonlyArray<readonly [string, RegExp]> = [
  ['http://localhost:P/secret', /names this machine/],
  ['http://localhost.:P/secret', /names this machine/],
  ['http://LOCALHOST:P/secret', /names this machine/],
  ['http://LocalHost..:P/secret', /names this machine/],
  ['http://foo.localhost:P/secret', /names this machine/],
  ['http://a.b.LOCALHOST./secret', /names this machine/],
  ['http://user:pw@public.example/', /user name or password/],
  ['http://user@public.example/', /user name or password/],
  ['http://:pw@public.example/', /user name or password/],
  ['file:///etc/passwd', /only http and https/],
  ['ftp://public.example/file', /only http and https/],
  ['gopher://127.0.0.1:P/_GET', /only http and https/],
  ['data:text/html,<h1>hi</h1>', /only http and https/],
  ['javascript:alert(1)', /only http and https/],
  ['ws://public.example/socket', /only http and https/],
  ['http://public.example:25/', /blocked list/],
  ['http://', /not a valid URL/],
  ['not a url', /not a valid URL/],
];

describe('attack corpus: literal addresses, names, credentials, schemes', () => {
  const dns = { [OK_HOST]: ['127.0.0.1'], 'public.example': ['127.0.0.1'] };

  it.each([...LITERALS, ...NAMES])('refuses %s before dialling or resolving', async (template, pattern) => {
    const client = testClient({ dns, allowHosts: [OK_HOST] });
    const before = server.total();
    const error = await rejection(client.fetch(template.replaceAll('P', String(P))));
    expectRefusal(error, pattern);
    // Nothing dialled, nothing resolved: counted, not timed.
    expect(server.total()).toBe(before);
    expect(client.resolver.lookups).toEqual([]);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('the connector refuses a blocked literal by itself, without the URL check in front', async () => {
    const connect = guardedConnector({
      policy: createAddressPolicy(),
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
      connectTimeoutMs: 300,
      headersTimeoutMs: 300,
      bodyTimeoutMs: 300,
    });
    const before = server.total();
    for (const hostname of ['127.0.0.1', '::ffff:7f00:1', '::1', 'localhost']) {
      const error = await new Promise<Error | null>((resolve) =>
        connect({ hostname, protocol: 'http:', port: String(P) }, (...args) => resolve(args[0])),
      );
      expect(error?.message).toMatch(/Refused/);
    }
    const viaDns = await new Promise<Error | null>((resolve) =>
      connect({ hostname: 'anything.test', protocol: 'http:', port: String(P) }, (...args) =>
        resolve(args[0]),
      ),
    );
    expect(viaDns?.message).toMatch(/loopback/);
    expect(server.total()).toBe(before);
  });
});
