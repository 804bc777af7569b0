/**
 * Shared assertions of the attack corpus: a refused fetch is a one-sentence UserError (no stack,
 * no "fetch failed"), the local server saw no request where it must not, and a normal allowed
 * fetch through the same client still works afterwards.
 */
import { UserError } from '@mcpkit/core/errors';
import { expect } from 'vitest';
import type { GuardedClient } from '../../src/net/guarded-client.js';
import type { LocalServer } from './local-server.js';

/** Host name every attack file maps to 127.0.0.1 and allows, for the "still works" check. */
export const OK_HOST = 'ok.test';

/** Asserts `error` is a refusal written for the user, matching `pattern`. */
export function expectRefusal(error: Error, pattern: RegExp): void {
  expect(error).toBeInstanceOf(UserError);
  expect(error.message).toMatch(pattern);
  expect(error.message).not.toMatch(/fetch failed|\n\s+at /);
}

/** Asserts the client still fetches an allowed page from `server` (route `/ok`). */
export async function expectStillWorks(client: GuardedClient, server: LocalServer): Promise<void> {
  const before = server.hits('/ok');
  const result = await client.fetch(server.url('/ok', OK_HOST));
  expect(result.status).toBe(200);
  expect(server.hits('/ok')).toBe(before + 1);
}
