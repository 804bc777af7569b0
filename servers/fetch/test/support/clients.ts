/**
 * A DNS stub and a client factory for the fetch tests. The stub answers from a table (a fixed
 * list, a function called per lookup for rebinding, or an error), records every lookup, and
 * never asks real DNS; names it does not know fail as ENOTFOUND would.
 */
import { createAddressPolicy } from '../../src/net/address-policy.js';
import { createGuardedClient, type GuardedClient } from '../../src/net/guarded-client.js';
import type { FetchLimits } from '../../src/net/limits.js';
import type { ResolvedAddress, Resolver } from '../../src/net/resolver.js';
import { TEST_CERT } from './tls-fixture.js';

/** One name's answer: addresses, addresses per lookup number, an error to throw, or no answer ever. */
export type StubAnswer = readonly string[] | ((lookup: number) => readonly string[]) | Error | 'hang';

/** A resolver that answers from a table and records the names it was asked. */
export interface StubResolver extends Resolver {
  lookups: string[];
}

/** The stub resolver. */
export function stubResolver(table: Record<string, StubAnswer>): StubResolver {
  const lookups: string[] = [];
  const counts = new Map<string, number>();
  const resolve = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    lookups.push(hostname);
    const n = (counts.get(hostname) ?? 0) + 1;
    counts.set(hostname, n);
    const answer = table[hostname];
    if (answer === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    if (answer instanceof Error) throw answer;
    if (answer === 'hang') return new Promise<never>(() => undefined);
    const list = typeof answer === 'function' ? answer(n) : answer;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { lookups });
}

/** Short limits for tests: every attack ends within about half a second. */
export const TEST_LIMITS: Partial<FetchLimits> = {
  connectTimeoutMs: 300,
  firstByteTimeoutMs: 300,
  totalTimeoutMs: 500,
  maxBytes: 256 * 1024,
};

/** What a test client allows and resolves. */
export interface TestClientOptions {
  dns?: Record<string, StubAnswer>;
  allowHosts?: string[];
  allowCidrs?: string[];
  limits?: Partial<FetchLimits>;
  userAgent?: string;
}

/** A guarded client with the stub resolver, the test CA and {@link TEST_LIMITS}. */
export function testClient(options: TestClientOptions = {}): GuardedClient & { resolver: StubResolver } {
  const resolver = stubResolver(options.dns ?? {});
  const client = createGuardedClient({
    policy: createAddressPolicy({ hosts: options.allowHosts ?? [], cidrs: options.allowCidrs ?? [] }),
    resolver,
    limits: { ...TEST_LIMITS, ...options.limits },
    ca: TEST_CERT,
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  });
  return Object.assign(client, { resolver });
}

/**
 * The error a promise rejects with (fails the test when it resolves). A protocol error carries
 * its JSON-RPC `code` and `data`.
 */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: number; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: number; data?: unknown };
  }
  throw new Error('expected the call to be refused, but it succeeded');
}
