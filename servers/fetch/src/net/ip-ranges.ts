/**
 * Which IP addresses the fetch server refuses to dial. A model that can make the server fetch a URL
 * can otherwise read cloud metadata (169.254.169.254, fd00:ec2::254, 168.63.129.16), the loopback
 * interface and the private network the server runs in. The table is deny-by-default: an address
 * is public only if it is in no listed range AND ipaddr.js calls it plain `unicast`, so a special
 * range missing here is still refused. Addresses that embed an IPv4 address (IPv4-mapped,
 * IPv4-translated, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address inside.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address is refused, as words that fit "… is <reason>". */
export type BlockReason = string;

/** The verdict on one address: the address as normalised and, when refused, why. */
export interface AddressVerdict {
  /** The address in canonical form (an IPv4-mapped IPv6 address is shown as IPv4). */
  address: string;
  /** Set when the address must not be dialled. */
  blocked?: BlockReason;
}

const IPV4_BLOCKS: ReadonlyArray<readonly [string, BlockReason]> = [
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['168.63.129.16/32', 'the Azure WireServer address'],
  ['169.254.0.0/16', 'a link-local (cloud metadata) address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'an IETF protocol address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.88.99.0/24', 'a 6to4 relay address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved or broadcast address'],
];

const IPV6_BLOCKS: ReadonlyArray<readonly [string, BlockReason]> = [
  ['::/128', 'the unspecified address'],
  ['::1/128', 'a loopback address'],
  ['::/96', 'an IPv4-compatible address'],
  ['64:ff9b:1::/48', 'a local NAT64 address'],
  ['100::/64', 'a discard address'],
  ['2001::/23', 'an IETF protocol address (Teredo, benchmarking)'],
  ['2001:db8::/32', 'a documentation address'],
  ['3fff::/20', 'a documentation address'],
  ['fc00::/7', 'a unique local (private) address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
];

const parsedV4 = IPV4_BLOCKS.map(([cidr, reason]) => [ipaddr.IPv4.parseCIDR(cidr), reason] as const);
const parsedV6 = IPV6_BLOCKS.map(([cidr, reason]) => [ipaddr.IPv6.parseCIDR(cidr), reason] as const);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const TRANSLATED = ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/**
 * Parses an address in the strict forms a resolver or a normalised URL yields (dotted quad, IPv6
 * text without brackets), or `undefined`. Shorthand IPv4 forms (`127.1`, `0x7f000001`) are not
 * accepted here: the WHATWG URL parser has already turned them into dotted quads.
 */
export function parseAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text) && !text.includes('%')) return ipaddr.IPv6.parse(text);
  return undefined;
}

/** The IPv4 address an IPv6 address carries inside it (mapped, translated, NAT64, 6to4), if any. */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const low = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(TRANSLATED) || address.match(NAT64)) return low(p[6] ?? 0, p[7] ?? 0);
  if (address.match(SIX_TO_FOUR)) return low(p[1] ?? 0, p[2] ?? 0);
  return undefined;
}

function classifyV4(address: ipaddr.IPv4): BlockReason | undefined {
  for (const [range, reason] of parsedV4) if (address.match(range)) return reason;
  const range = address.range();
  return range === 'unicast' ? undefined : `a special-purpose address (${range})`;
}

function classifyV6(address: ipaddr.IPv6): BlockReason | undefined {
  const inner = embeddedIPv4(address);
  if (inner) {
    const reason = classifyV4(inner);
    return reason ? `${reason} (${inner.toString()} inside ${address.toString()})` : undefined;
  }
  for (const [range, reason] of parsedV6) if (address.match(range)) return reason;
  if (!address.match(GLOBAL_UNICAST_V6)) return 'outside the global unicast range';
  const range = address.range();
  return range === 'unicast' ? undefined : `a special-purpose address (${range})`;
}

/**
 * Classifies one IP address after normalising it: an IPv4-mapped IPv6 address (`::ffff:7f00:1`) is
 * judged as the IPv4 address it maps to. Anything that does not parse as an address is refused.
 *
 * @example
 * ```ts
 * classifyAddress('::ffff:127.0.0.1'); // { address: '127.0.0.1', blocked: 'a loopback address' }
 * classifyAddress('93.184.215.14');    // { address: '93.184.215.14' }
 * ```
 */
export function classifyAddress(text: string): AddressVerdict {
  const parsed = parseAddress(text);
  if (!parsed) return { address: text, blocked: 'not a valid IP address' };
  const address = parsed.kind() === 'ipv6' ? ipaddr.process(parsed.toString()) : parsed;
  const blocked =
    address.kind() === 'ipv4' ? classifyV4(address as ipaddr.IPv4) : classifyV6(address as ipaddr.IPv6);
  return { address: address.toString(), ...(blocked ? { blocked } : {}) };
}
