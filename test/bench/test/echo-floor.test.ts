import { describe, expect, it } from 'vitest';
import { echoFloor } from '../src/echo-floor.js';
import { answerText, type SessionContext } from '../src/scenario.js';

// The echo floor runs the built dist/echo-server.js (plain Node cannot run the source), which the
// package's build produces before its tests run.
function floorContext(): { ctx: SessionContext<unknown>; end: () => Promise<void> } {
  const closers: (() => Promise<void>)[] = [];
  return {
    ctx: { fixtures: {}, tag: 'echo-test', onEnd: (close) => void closers.push(close) },
    end: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}

describe('SDK echo floor', () => {
  it('carries an answer of the built text’s size in bytes over one MCP call and returns the text', async () => {
    const { ctx, end } = floorContext();
    try {
      const roundTrip = await echoFloor(ctx);
      // Empty, ASCII, multi-byte (two bytes a character) and a large answer, twice each: sizes are cached.
      for (const text of ['', 'abc', 'é'.repeat(1000), 'r'.repeat(300_000), 'abc', 'é'.repeat(1000)]) {
        const result = await roundTrip(text);
        expect(result.text).toBe(text);
        expect(result.answers).toHaveLength(1);
        expect(answerText(result.answers[0]!).length).toBe(Buffer.byteLength(text, 'utf8'));
      }
    } finally {
      await end();
    }
  });

  it('stops its server when the session ends', async () => {
    const { ctx, end } = floorContext();
    const roundTrip = await echoFloor(ctx);
    await roundTrip('before');
    await end();
    await expect(roundTrip('after')).rejects.toThrow();
  });
});
