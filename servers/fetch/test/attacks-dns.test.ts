/**
 * Attack corpus, part 2: names whose DNS answer is hostile, through the injected stub (real DNS is
 * never asked). A name with one blocked address among public ones, names resolving to metadata,
 * NAT64 or IPv4-mapped forms, lookups that throw, hang or answer nothing, and DNS rebinding. The
 * refusal happens inside the socket's lookup, so nothing is dialled: 1.2.3.4 in an answer is
 * never contacted, and the local server counts no request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusal, expectStillWorks, OK_HOST } from './support/attack-kit.js';
import { rejection, type StubAnswer, testClient } from './support/clients.js';
import { type LocalServer, startServer, text } from './support/local-server.js';

let server: LocalServer;

beforeAll(async () => {
  server = await startServer({
    '/ok': text('fine'),
    '/secret': text('secret'),
    '/once': text('public page', 'text/html', { connection: 'close' }),
  });
});
afterAll(() => server.close());

/** [name, stub answer, what the refusal says]. */
const HOSTILE: ReadonlyArray<readonly [string, StubAnswer, RegExp]> = [
  ['multi.test', ['1.2.3.4', '127.0.0.1'], /loopback/],
  ['multi-first.test', ['127.0.0.1', '1.2.3.4'], /loopback/],
  ['multi-v6.test', ['2606:4700::1', '::1'], /loopback/],
  ['metadata.test', ['169.254.169.254'], /link-local/],
  ['alibaba.test', ['100.100.100.200'], /carrier-grade/],
  ['azure.test', ['168.63.129.16'], /WireServer/],
  ['imds6.test', ['fd00:ec2::254'], /unique local/],
  ['mapped.test', ['::ffff:127.0.0.1'], /loopback/],
  ['mapped-hex.test', ['::ffff:7f00:1'], /loopback/],
  ['nat64.test', ['64:ff9b::a9fe:a9fe'], /link-local/],
  ['sixtofour.test', ['2002:c0a8:101::1'], /private/],
  ['zero.test', ['0.0.0.0'], /unspecified/],
  ['private.test', ['10.1.2.3'], /private/],
  ['garbage.test', ['not-an-address'], /not a valid IP address/],
  ['empty.test', [], /no address/],
  ['throws.test', new Error('resolver exploded'), /Could not resolve/],
  ['teredo.test', ['2001:0:4136:e378:8000:63bf:3fff:fdd2'], /IETF/],
  ['broadcast.test', ['255.255.255.255'], /broadcast/],
  ['missing.test', undefined as unknown as StubAnswer, /Could not resolve.*ENOTFOUND/],
];

describe('attack corpus: hostile DNS answers', () => {
  it.each(HOSTILE)('refuses %s (%j) without dialling', async (name, answer, pattern) => {
    const dns: Record<string, StubAnswer> = { [OK_HOST]: ['127.0.0.1'] };
    if (answer !== undefined) dns[name] = answer;
    const client = testClient({ dns, allowHosts: [OK_HOST] });
    const before = server.total();
    const error = await rejection(client.fetch(server.url('/secret', name)));
    expectRefusal(error, pattern);
    expect(server.total()).toBe(before);
    expect(client.resolver.lookups).toContain(name);
    await expectStillWorks(client, server);
    await client.close();
  });

  // Without the connect timeout the lookup would hang: left to the generous test timeout.
  it('fails closed when the lookup never answers (stopped by the connect timeout)', {
    timeout: 30_000,
  }, async () => {
    const client = testClient({
      dns: { 'hang.test': 'hang', [OK_HOST]: ['127.0.0.1'] },
      allowHosts: [OK_HOST],
      limits: { connectTimeoutMs: 200 },
    });
    const before = server.total();
    const error = await rejection(client.fetch(server.url('/secret', 'hang.test')));
    // The sentence names the 200 ms connect timeout: that is what stopped the hanging lookup.
    expectRefusal(error, /Connecting to hang.test took longer than 200 ms/);
    expect(server.total()).toBe(before);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('checks the dialled address on every new connection (DNS rebinding)', async () => {
    // 127.0.0.1 stands in for a public address: it is allowed by CIDR. The second lookup of the
    // same name answers the metadata address, as a rebinding server would after a first check.
    const client = testClient({
      dns: {
        'rebind.test': (n) => (n === 1 ? ['127.0.0.1'] : ['169.254.169.254']),
        [OK_HOST]: ['127.0.0.1'],
      },
      allowCidrs: ['127.0.0.1/32'],
    });
    const first = await client.fetch(server.url('/once', 'rebind.test'));
    expect(first.status).toBe(200);
    const before = server.total();
    const error = await rejection(client.fetch(server.url('/secret', 'rebind.test')));
    expectRefusal(error, /169\.254\.169\.254.*link-local/);
    expect(server.total()).toBe(before);
    expect(client.resolver.lookups.filter((name) => name === 'rebind.test')).toHaveLength(2);
    await expectStillWorks(client, server);
    await client.close();
  });

  it('resolves once per connection, so the address checked is the address dialled', async () => {
    // Public on the first lookup, loopback on any later one: a guard that resolved once to check
    // and again to connect would dial the second answer. This one never asks twice for one request.
    const client = testClient({
      dns: { 'flip.test': (n) => (n === 1 ? ['127.0.0.1'] : ['127.0.0.9']) },
      allowCidrs: ['127.0.0.1/32'],
    });
    const result = await client.fetch(server.url('/once', 'flip.test'));
    expect(result.status).toBe(200);
    expect(client.resolver.lookups).toEqual(['flip.test']);
    await client.close();
  });

  it('refuses a public name that resolves to a blocked address even when another name is allowed', async () => {
    const client = testClient({
      dns: { 'intranet.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'], [OK_HOST]: ['127.0.0.1'] },
      allowHosts: ['intranet.test', OK_HOST],
    });
    const before = server.total();
    const error = await rejection(client.fetch(server.url('/secret', 'evil.test')));
    expectRefusal(error, /resolved from "evil\.test"/);
    expect(server.total()).toBe(before);
    expect((await client.fetch(server.url('/ok', 'intranet.test'))).status).toBe(200);
    await client.close();
  });
});
