/**
 * What every input of the review attack corpus (attacks-review-*.test.ts) asserts besides its own
 * outcome: no secret and no host path outside the root leaks, in text, structured content or a
 * base64 payload.
 */
import { expect } from 'vitest';
import { leakedPaths, stringsIn, textOf, type world } from './harness.js';

export type World = Awaited<ReturnType<typeof world>>;
export type Era = 'legacy' | 'modern';

export const SECRETS = ['top secret', 'hunter2', 'PRIVATE KEY', 'outside-only'];

/** The decoded bytes of every base64 `data` or `blob` field in a result (media, resource blobs). */
function decodedPayloads(value: unknown): string {
  if (Array.isArray(value)) return value.map(decodedPayloads).join('\n');
  if (!value || typeof value !== 'object') return '';
  return Object.entries(value)
    .map(([key, v]) =>
      (key === 'data' || key === 'blob') && typeof v === 'string'
        ? Buffer.from(v, 'base64').toString('latin1')
        : decodedPayloads(v),
    )
    .join('\n');
}

/** Asserts an attack result leaked nothing: no secret, no host path outside, no stack, no crash text. */
export function expectNoLeak(w: World, result: unknown, args: unknown): void {
  const json = JSON.stringify(result);
  const payloads = decodedPayloads(result);
  for (const secret of SECRETS) {
    expect(json).not.toContain(secret);
    expect(payloads).not.toContain(secret);
  }
  const inputs = stringsIn(args);
  expect(leakedPaths(stringsIn(result).join('\n'), w.outside, inputs)).toEqual([]);
  const text = textOf(result as { content?: unknown });
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toContain('internal error');
}
