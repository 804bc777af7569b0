/**
 * TaskStore results: kept within maxResultBytes at two bytes a character, room made from read
 * results and from whoever holds the most, a result too large for the budget replaced by a short
 * tool error, and copies handed out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TOO_LARGE_RESULT } from '../src/tasks/outcome.js';
import { charge, clock, closeStores, KiB, RESULT, sized, store } from './tasks-store-kit.js';

afterEach(closeStores);

describe('task store', () => {
  it('charges kept results two bytes per character and keeps them within maxResultBytes', () => {
    const s = store({ maxResultBytes: 256 * KiB });
    const result = sized(40 * KiB);
    const tasks = Array.from({ length: 5 }, () => s.create('p'));
    for (const task of tasks) {
      task.complete(result);
      clock.now += 1;
    }
    // Each is charged about 80 KiB: three fit, the two finished first made room.
    expect(s.resultBytes).toBe(3 * charge(result));
    expect(s.resultBytes).toBeLessThanOrEqual(256 * KiB);
    expect(tasks.map((t) => s.get(t.id, 'p')?.status)).toEqual([
      undefined,
      undefined,
      'completed',
      'completed',
      'completed',
    ]);
    expect(s.get(tasks[4]?.id ?? '', 'p')?.result).toEqual(result);
  });

  it('charges text outside Latin-1 as much as any: V8 may hold either in two bytes a character', () => {
    const s = store();
    const result = { content: [{ type: 'text' as const, text: `${'a'.repeat(1_000)}\u2028` }] };
    s.create('p').complete(result);
    expect(s.resultBytes).toBe(charge(result));
    expect(s.resultBytes).toBeGreaterThan(2 * 1_000);
  });

  it('makes room for results with read ones first, then the oldest unread one', () => {
    const s = store({ maxResultBytes: 256 * KiB });
    const result = sized(40 * KiB);
    const [a, b, c] = [s.create('p'), s.create('p'), s.create('p')];
    a?.complete(result);
    b?.complete(result);
    c?.complete(result);
    expect(s.get(c?.id ?? '', 'p')?.status).toBe('completed');
    s.create('p').complete(result);
    expect(s.get(c?.id ?? '', 'p')).toBeUndefined();
    expect(s.size).toBe(3);
    s.create('p').complete(result);
    expect(s.get(a?.id ?? '', 'p')).toBeUndefined();
    expect(s.get(b?.id ?? '', 'p')?.status).toBe('completed');
  });

  it("takes room for one client's results from whoever holds the most, not from a quiet client", () => {
    const s = store({ maxResultBytes: 256 * KiB });
    const small = s.create('quiet');
    small.complete(sized(10 * KiB));
    for (let i = 0; i < 8; i++) s.create('busy').complete(sized(40 * KiB));
    expect(s.get(small.id, 'quiet')?.result).toEqual(sized(10 * KiB));
    expect(s.resultBytes).toBeLessThanOrEqual(256 * KiB);
  });

  it('replaces a result larger than the whole budget with a short tool error', () => {
    const s = store({ maxResultBytes: 64 * KiB });
    const other = s.create('p');
    other.complete(RESULT);
    const task = s.create('p');
    task.complete(sized(40 * KiB));
    expect(s.get(task.id, 'p')).toMatchObject({ status: 'completed', result: TOO_LARGE_RESULT });
    expect(TOO_LARGE_RESULT.content[0]).toMatchObject({
      text: expect.stringMatching(/^The result was too large to keep for a task; [^.]+\.$/),
    });
    // The small result was not dropped for a notice that fits beside it.
    expect(s.get(other.id, 'p')?.status).toBe('completed');
  });

  it('hands out copies: changing a result read from the store changes nothing kept', () => {
    const s = store();
    const task = s.create('p');
    const block = { type: 'text' as const, text: 'xxx' };
    task.complete({ content: [block] });
    block.text = 'changed by the tool afterwards';
    const read = s.get(task.id, 'p')?.result;
    expect(read).toEqual(sized(3));
    (read?.content[0] as { text: string }).text = 'changed by a reader';
    expect(s.get(task.id, 'p')?.result).toEqual(sized(3));
  });

  it('charges nothing for a task dropped before its work ended', () => {
    const s = store({ ttlMs: 1_000 });
    const task = s.create('p');
    clock.now += 1_000;
    s.sweep();
    task.complete(sized(1_000));
    expect(s.resultBytes).toBe(0);
    expect(s.size).toBe(0);
  });
});
