/**
 * What the server keeps of diffs being paged is bounded: one output, all of them together, and the
 * time each is kept. A client paging many large diffs at once must not grow the server without end.
 */
import { describe, expect, it } from 'vitest';
import { DiffRuns, KEEP_MS, type KeptRun, MAX_KEPT_CHARS, MAX_TOTAL_CHARS } from '../src/git/diff-runs.js';

const run = (chars: number): KeptRun => ({ out: 'x'.repeat(chars), units: [], ahead: 0 });

describe('diff outputs kept for their later pages', () => {
  it('keeps an output for its diff, replaces it with a newer one, and forgets it when asked', () => {
    const runs = new DiffRuns();
    const first = run(10);
    runs.keep('a', first);
    expect(runs.get('a')).toBe(first);
    expect(runs.get('b')).toBeUndefined();
    const newer = run(20);
    runs.keep('a', newer);
    expect(runs.get('a')).toBe(newer);
    expect(runs.chars).toBe(20);
    runs.drop('a');
    expect(runs.get('a')).toBeUndefined();
    expect(runs.chars).toBe(0);
  });

  it('does not keep one output longer than its limit', () => {
    const runs = new DiffRuns();
    runs.keep('big', run(MAX_KEPT_CHARS + 1));
    expect(runs.get('big')).toBeUndefined();
    expect(runs.chars).toBe(0);
  });

  it('drops the oldest outputs to stay within the total', () => {
    const runs = new DiffRuns();
    const size = MAX_KEPT_CHARS;
    for (const key of ['a', 'b', 'c']) runs.keep(key, run(size));
    expect(runs.chars).toBeLessThanOrEqual(MAX_TOTAL_CHARS);
    expect(runs.get('a')).toBeUndefined();
    expect(runs.get('b')).toBeDefined();
    expect(runs.get('c')).toBeDefined();
  });

  it('forgets an output once its time is up', () => {
    let now = 1_000;
    const runs = new DiffRuns(() => now);
    runs.keep('a', run(10));
    now += KEEP_MS - 1;
    expect(runs.get('a')).toBeDefined();
    now += 1;
    expect(runs.get('a')).toBeUndefined();
    expect(runs.chars).toBe(0);
  });
});
