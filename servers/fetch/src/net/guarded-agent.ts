/**
 * The undici Agent that enforces the address policy where the connection is made. A check made
 * before the request (resolve, check, then fetch) can be fooled by DNS rebinding: the name
 * resolves to a public address for the check and to 127.0.0.1 for the connection. Here the
 * resolver runs inside the socket's `lookup`, every address it returns is checked, and the
 * socket dials only from that checked list. Node skips `lookup` for an IP literal, so the
 * connector checks literals itself before dialling.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { UserError } from '@mcpkit/core/errors';
import { type AddressPolicy, normalizeHostname } from './address-policy.js';
import type { ResolvedAddress, Resolver } from './resolver.js';
import { Agent, buildConnector } from './undici-parts.js';

/** How the agent connects; the timeouts come from the client's limits. */
export interface GuardedAgentOptions {
  policy: AddressPolicy;
  resolver: Resolver;
  connectTimeoutMs: number;
  /** undici's own header timeout, a backstop behind the client's first-byte timer. */
  headersTimeoutMs: number;
  /** undici's own idle timeout between body chunks, a backstop behind the total deadline. */
  bodyTimeoutMs: number;
  /** Extra certificate authorities to trust (an intranet CA); the system ones stay trusted. */
  ca?: string | readonly string[];
}

/** undici's connector returns the socket it made, which its type does not say. */
type SocketReturningConnector = (
  options: buildConnector.Options,
  callback: buildConnector.Callback,
) => Socket | undefined;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A resolver failure as one sentence; the request fails (closed), never proceeds. */
function lookupFailure(hostname: string, error: unknown): Error {
  if (error instanceof UserError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === 'string' ? code : 'the lookup failed';
  return new UserError(`Could not resolve "${hostname}" (${why}); check the host name.`);
}

/**
 * Resolves through `resolver`, refuses the whole answer if any address is blocked, and answers in
 * the form `net.connect` asked for (one address, or all of them for happy eyeballs).
 */
function guardedLookup(policy: AddressPolicy, resolver: Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const answer = async (): Promise<readonly ResolvedAddress[]> => {
      policy.checkName(hostname);
      const found = await resolver(hostname);
      if (found.length === 0)
        throw new UserError(`"${hostname}" resolved to no address; check the host name.`);
      for (const entry of found) policy.checkAddress(entry.address, hostname);
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const usable = family ? found.filter((entry) => entry.family === family) : found;
      if (usable.length === 0) throw new UserError(`"${hostname}" has no IPv${family} address.`);
      return usable;
    };
    answer().then(
      (usable) => {
        const first = usable[0]!;
        if (options.all)
          callback(
            null,
            usable.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(lookupFailure(hostname, error) as NodeJS.ErrnoException, ''),
    );
  };
}

/**
 * The guarded connector: checks the name (and the address, for an IP literal) and then lets
 * undici's connector dial with the guarded lookup. Exported for tests of the connector alone.
 */
export function guardedConnector(options: GuardedAgentOptions): buildConnector.connector {
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.policy, options.resolver),
    autoSelectFamily: true,
    ...(options.ca
      ? { ca: [...rootCertificates, ...(typeof options.ca === 'string' ? [options.ca] : options.ca)] }
      : {}),
  });
  return (connectOptions, callback) => {
    const host = normalizeHostname(connectOptions.hostname);
    try {
      options.policy.checkName(host);
      if (isIP(host)) options.policy.checkAddress(host, connectOptions.hostname);
    } catch (error) {
      callback(error as Error, null);
      return;
    }
    // undici's own connect timer has a coarse resolution; this one covers the lookup too, and
    // destroys the socket so a hung resolver or a silent SYN leaves nothing behind.
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      socket?.destroy();
      const message = `Connecting to ${connectOptions.hostname} took longer than ${options.connectTimeoutMs} ms; try again later.`;
      callback(new UserError(message), null);
    }, options.connectTimeoutMs);
    const socket = (base as SocketReturningConnector)(connectOptions, (...args) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callback(...args);
    });
  };
}

/**
 * An undici Agent whose every connection passes the address policy. No proxy is ever used: the
 * agent is handed to each request explicitly, so `HTTP_PROXY` and friends have no effect.
 *
 * @example
 * ```ts
 * const agent = createGuardedAgent({ policy, resolver: systemResolver, connectTimeoutMs: 5000,
 *   headersTimeoutMs: 10000, bodyTimeoutMs: 30000 });
 * await fetch(url, { dispatcher: agent, redirect: 'manual' });
 * ```
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connect: guardedConnector(options),
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    keepAliveTimeout: 4_000,
    connections: 16,
  });
}
