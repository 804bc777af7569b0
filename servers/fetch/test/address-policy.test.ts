/**
 * The address policy on its own: public addresses pass (including NAT64 and 6to4 forms of a
 * public IPv4 address), every blocked range is refused after normalisation, and the operator's
 * allowlist lets exactly the hosts and ranges it names through, and rejects malformed entries.
 */
import { UserError } from '@mcpkit/core/errors';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { createAddressPolicy, normalizeHostname } from '../src/net/address-policy.js';
import { classifyAddress, embeddedIPv4, parseAddress } from '../src/net/ip-ranges.js';
import { checkUrl } from '../src/net/url-check.js';

describe('classifyAddress', () => {
  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '168.63.129.17',
  ])('lets the public address %s through', (address) => {
    expect(classifyAddress(address).blocked).toBeUndefined();
  });

  it.each([
    ['0.0.0.0', /unspecified/],
    ['127.255.255.254', /loopback/],
    ['10.255.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.0.1', /private/],
    ['100.64.0.1', /carrier-grade/],
    ['169.254.169.254', /link-local/],
    ['168.63.129.16', /WireServer/],
    ['192.0.0.8', /IETF/],
    ['198.19.255.255', /benchmarking/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:0:a00:1', /private/],
    ['64:ff9b::7f00:1', /loopback/],
    ['64:ff9b:1::1', /local NAT64/],
    ['2002:a9fe:a9fe::', /link-local/],
    ['2001:db8::1', /documentation/],
    ['fd00:ec2::254', /unique local/],
    ['fe80::1', /link-local/],
    ['ff02::1', /multicast/],
    ['100::1', /discard/],
    ['4000::1', /outside the global unicast range/],
    ['not-an-ip', /not a valid IP address/],
    ['127.1', /not a valid IP address/],
  ])('blocks %s', (address, reason) => {
    expect(classifyAddress(address).blocked).toMatch(reason);
  });

  it('shows an IPv4-mapped address as the IPv4 address it maps to', () => {
    expect(classifyAddress('::ffff:7f00:1')).toEqual({ address: '127.0.0.1', blocked: 'a loopback address' });
    expect(embeddedIPv4(ipaddr.IPv6.parse('64:ff9b::a9fe:a9fe'))?.toString()).toBe('169.254.169.254');
    expect(embeddedIPv4(ipaddr.IPv6.parse('2606:4700::1'))).toBeUndefined();
    expect(parseAddress('0x7f000001')).toBeUndefined();
  });
});

describe('names', () => {
  it('normalises case, brackets and trailing dots', () => {
    expect(normalizeHostname('LocalHost..')).toBe('localhost');
    expect(normalizeHostname('[::1]')).toBe('::1');
  });

  it.each(['localhost', 'LOCALHOST.', 'a.localhost', 'x.y.localhost.'])('refuses %s', (name) => {
    expect(() => createAddressPolicy().checkName(name)).toThrow(UserError);
  });

  it('leaves other names to the address check', () => {
    expect(() => createAddressPolicy().checkName('localhost.example.com')).not.toThrow();
    expect(() => createAddressPolicy().checkName('mylocalhost')).not.toThrow();
  });
});

describe('operator allowlist', () => {
  const policy = createAddressPolicy({
    hosts: ['wiki.corp', '*.build.corp', 'LOCALHOST', '10.9.9.9'],
    cidrs: ['10.20.0.0/16', 'fd12::/16', '127.0.0.1'],
  });

  it('lets allowed hosts reach whatever they resolve to', () => {
    expect(() => policy.checkAddress('10.0.0.1', 'wiki.corp')).not.toThrow();
    expect(() => policy.checkAddress('10.0.0.1', 'WIKI.corp.')).not.toThrow();
    expect(() => policy.checkAddress('192.168.1.1', 'ci.build.corp')).not.toThrow();
    expect(() => policy.checkName('localhost')).not.toThrow();
    expect(() => policy.checkAddress('10.0.0.1', 'build.corp')).toThrow(/private/);
    expect(() => policy.checkAddress('10.0.0.1', 'evilwiki.corp')).toThrow(/private/);
  });

  it('lets allowed ranges through, in any spelling', () => {
    expect(() => policy.checkAddress('10.20.3.4', 'any.example')).not.toThrow();
    expect(() => policy.checkAddress('::ffff:10.20.3.4', 'any.example')).not.toThrow();
    expect(() => policy.checkAddress('fd12::1', 'any.example')).not.toThrow();
    expect(() => policy.checkAddress('10.9.9.9', 'x.example')).not.toThrow();
    expect(() => policy.checkAddress('10.21.0.1', 'any.example')).toThrow(/private/);
    expect(() => policy.checkAddress('127.0.0.2', 'any.example')).toThrow(/loopback/);
    expect(() => checkUrl('http://2130706433/', policy)).not.toThrow();
    expect(() => checkUrl('http://127.0.0.2/', policy)).toThrow(/loopback/);
  });

  it.each([
    [{ cidrs: ['10.0.0.0/33'] }, /not a CIDR range/],
    [{ cidrs: ['ten.zero/8'] }, /not a CIDR range/],
    [{ hosts: ['*'] }, /not a host name/],
    [{ hosts: ['a*.corp'] }, /not a host name/],
  ])('rejects the malformed entry %j at start', (allow, message) => {
    expect(() => createAddressPolicy(allow)).toThrow(message);
  });
});

describe('checkUrl', () => {
  const policy = createAddressPolicy();

  it('returns the parsed URL of an acceptable request', () => {
    expect(checkUrl('https://Example.COM/a?b#c', policy).href).toBe('https://example.com/a?b#c');
  });

  it('refuses overlong URLs before parsing them', () => {
    expect(() => checkUrl(`https://example.com/${'a'.repeat(9_000)}`, policy)).toThrow(/characters long/);
  });
});
