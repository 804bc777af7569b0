/**
 * The one place that decides whether a host name or an address may be reached: the built-in
 * deny table (ip-ranges.ts), the names that always mean "this machine" (`localhost`,
 * `*.localhost`), and the operator's allowlist (`--allow-host`, `--allow-cidr`) for intranet
 * targets. Both the URL check (before a request) and the connector (when the socket is made) ask
 * it, so the two can never disagree.
 */
import { UserError } from '@mcpkit/core/errors';
import ipaddr from 'ipaddr.js';
import { classifyAddress, parseAddress } from './ip-ranges.js';

/**
 * The policy's refusal: a host name or an address that must not be reached. A `UserError` like
 * every refusal, but its own class, so a caller that tolerates network failures (robots.txt)
 * can still tell "this host is off limits" apart and pass it on. `host` is the name refused.
 */
export class AddressRefused extends UserError {
  constructor(
    message: string,
    readonly host: string,
  ) {
    super(message);
  }
}

/** What the operator allows on top of the public internet. */
export interface AllowList {
  /**
   * Host names reached whatever they resolve to: `wiki.corp` (exact) or `*.corp` (any sub-domain,
   * not `corp` itself). An IP address here is the same as a `/32` or `/128` CIDR.
   */
  hosts?: readonly string[];
  /** Address ranges reached although they are private, loopback and so on: `10.1.0.0/16`. */
  cidrs?: readonly string[];
}

/** The decisions the guarded client needs; build one with {@link createAddressPolicy}. */
export interface AddressPolicy {
  /** True when the operator allowed this (normalised) host name. */
  allowsHost(hostname: string): boolean;
  /** Throws {@link AddressRefused} when a host name (not an address) must never be reached. */
  checkName(hostname: string): void;
  /** Throws {@link AddressRefused} when `address` must not be dialled for `hostname`. */
  checkAddress(address: string, hostname: string): void;
}

/**
 * A host name as the checks see it: lower-case, without the brackets of an IPv6 literal and
 * without trailing dots (`LOCALHOST.` and `localhost` are the same host).
 */
export function normalizeHostname(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '';
}

function parseCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text.trim());
    const address = parseAddress(text.trim());
    if (address) return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    // reported below
  }
  throw new UserError(`"${text}" is not a CIDR range; write it as 10.0.0.0/8 or fd00::/8.`);
}

function matchesCidr(address: ipaddr.IPv4 | ipaddr.IPv6, cidr: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

/**
 * Builds the policy from the operator's allowlist. Entries are validated here, so a typo in
 * `--allow-cidr` stops the server at start instead of silently allowing nothing.
 *
 * @example
 * ```ts
 * const policy = createAddressPolicy({ hosts: ['wiki.corp'], cidrs: ['10.20.0.0/16'] });
 * policy.checkAddress('10.20.1.5', 'build.corp'); // allowed by the CIDR
 * policy.checkAddress('127.0.0.1', 'evil.example'); // throws UserError
 * ```
 */
export function createAddressPolicy(allow: AllowList = {}): AddressPolicy {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const cidrs: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of allow.hosts ?? []) {
    const host = normalizeHostname(entry.trim());
    if (parseAddress(host)) cidrs.push(parseCidr(host));
    else if (host.startsWith('*.') && host.length > 2) suffixes.push(host.slice(1));
    else if (host && !host.includes('*')) exact.add(host);
    else throw new UserError(`"${entry}" is not a host name; write it as wiki.corp or *.corp.`);
  }
  for (const entry of allow.cidrs ?? []) cidrs.push(parseCidr(entry));

  const allowsHost = (hostname: string): boolean => {
    const host = normalizeHostname(hostname);
    return exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
  };

  const allowsAddress = (text: string): boolean => {
    const parsed = parseAddress(text);
    if (!parsed) return false;
    const unwrapped = parsed.kind() === 'ipv6' ? ipaddr.process(parsed.toString()) : parsed;
    return cidrs.some((cidr) => matchesCidr(parsed, cidr) || matchesCidr(unwrapped, cidr));
  };

  return {
    allowsHost,
    checkName(hostname) {
      const host = normalizeHostname(hostname);
      if (allowsHost(host) || parseAddress(host)) return;
      if (isLocalName(host))
        throw new AddressRefused(
          `Refused to fetch from "${hostname}": it names this machine; fetch a public address, or ask the operator to allow it with --allow-host.`,
          host,
        );
    },
    checkAddress(address, hostname) {
      if (allowsHost(hostname) || allowsAddress(address)) return;
      const verdict = classifyAddress(address);
      if (!verdict.blocked) return;
      const via = normalizeHostname(hostname) === verdict.address ? '' : ` (resolved from "${hostname}")`;
      throw new AddressRefused(
        `Refused to fetch from ${verdict.address}${via}: it is ${verdict.blocked}; fetch a public address, or ask the operator to allow it with --allow-cidr.`,
        normalizeHostname(hostname),
      );
    },
  };
}
