import { createRequestStateCodec } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging/logger.js';
import { resolveKeys, STATE_KEY_ENV } from '../src/server/keys.js';

const SECRET = 'a'.repeat(32);

function capture() {
  const lines: string[] = [];
  return { lines, log: createLogger({ level: 'debug', write: (line) => lines.push(line) }) };
}

const hex = (key: Uint8Array) => Buffer.from(key).toString('hex');

describe('resolveKeys', () => {
  it('names the variable and the fix when the secret is too short', () => {
    expect(() => resolveKeys({ [STATE_KEY_ENV]: 'too-short' })).toThrow(
      'MCPKIT_STATE_KEY must be at least 32 bytes long; generate one with "openssl rand -hex 32".',
    );
    expect(() => resolveKeys({ [STATE_KEY_ENV]: 'x'.repeat(31) })).toThrow(/at least 32 bytes/);
  });

  it('counts bytes, not characters', () => {
    // 16 two-byte characters are 32 bytes.
    expect(() => resolveKeys({ [STATE_KEY_ENV]: 'é'.repeat(16) })).not.toThrow();
    expect(() => resolveKeys({ [STATE_KEY_ENV]: 'é'.repeat(15) })).toThrow(/at least 32 bytes/);
  });

  it('derives the same keys from the same secret, silently', () => {
    const { lines, log } = capture();
    const a = resolveKeys({ [STATE_KEY_ENV]: SECRET }, log);
    const b = resolveKeys({ [STATE_KEY_ENV]: SECRET }, log);
    expect(a.ephemeral).toBe(false);
    expect(hex(a.requestState)).toBe(hex(b.requestState));
    expect(hex(a.cursors)).toBe(hex(b.cursors));
    expect(lines).toEqual([]);
  });

  it('derives different keys from a different secret', () => {
    const a = resolveKeys({ [STATE_KEY_ENV]: SECRET });
    const b = resolveKeys({ [STATE_KEY_ENV]: `${'a'.repeat(31)}b` });
    expect(hex(a.requestState)).not.toBe(hex(b.requestState));
    expect(hex(a.cursors)).not.toBe(hex(b.cursors));
  });

  it('gives request state and cursors different 32-byte keys, neither of them the secret', () => {
    const keys = resolveKeys({ [STATE_KEY_ENV]: SECRET });
    expect(keys.requestState.byteLength).toBe(32);
    expect(keys.cursors.byteLength).toBe(32);
    expect(hex(keys.requestState)).not.toBe(hex(keys.cursors));
    expect(hex(keys.requestState)).not.toBe(Buffer.from(SECRET).toString('hex'));
  });

  it('makes a random key without the variable and logs a line naming it', () => {
    const { lines, log } = capture();
    const a = resolveKeys({}, log);
    const b = resolveKeys({ [STATE_KEY_ENV]: '' }, log);
    expect(a.ephemeral).toBe(true);
    expect(b.ephemeral).toBe(true);
    expect(hex(a.requestState)).not.toBe(hex(b.requestState));
    expect(hex(a.requestState)).not.toBe(hex(a.cursors));
    expect(a.requestState.byteLength).toBe(32);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^(debug|info): MCPKIT_STATE_KEY is not set\b/);
  });

  it('works without a logger', () => {
    expect(resolveKeys({}).ephemeral).toBe(true);
  });

  it('yields a key the SDK request-state codec accepts, and replicas with one secret share state', async () => {
    const one = createRequestStateCodec<{ n: number }>({
      key: resolveKeys({ [STATE_KEY_ENV]: SECRET }).requestState,
    });
    const two = createRequestStateCodec<{ n: number }>({
      key: resolveKeys({ [STATE_KEY_ENV]: SECRET }).requestState,
    });
    const other = createRequestStateCodec<{ n: number }>({ key: resolveKeys({}).requestState });
    const state = await one.mint({ n: 1 });
    const ctx = {} as Parameters<typeof two.verify>[1];
    await expect(two.verify(state, ctx)).resolves.toEqual({ n: 1 });
    await expect(other.verify(state, ctx)).rejects.toThrow();
  });
});
