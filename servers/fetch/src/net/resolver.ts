/**
 * Name resolution as a replaceable function. The guarded agent resolves through it when a socket
 * is made, so tests hand it a stub (never touching real DNS) and an operator could hand it a
 * resolver of their own. The default asks the operating system, as every other program does.
 */
import { lookup } from 'node:dns/promises';

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to all its addresses. It rejects when the name does not resolve; the
 * guarded agent then refuses the request (a failed lookup is never treated as safe).
 */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * The operating system's resolver (`getaddrinfo` through `dns.lookup`), every address, in the
 * order the system prefers.
 */
export const systemResolver: Resolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, order: 'verbatim' });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};
