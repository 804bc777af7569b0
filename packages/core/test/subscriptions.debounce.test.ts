import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedDebouncer } from '../src/subscriptions/debounce.js';

describe('KeyedDebouncer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires once per key on the trailing edge of a burst', () => {
    const fired: string[] = [];
    const debouncer = new KeyedDebouncer<string>({ waitMs: 100, fire: (key) => fired.push(key) });
    debouncer.schedule('a');
    vi.advanceTimersByTime(60);
    debouncer.schedule('a');
    debouncer.schedule('b');
    vi.advanceTimersByTime(99);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired.sort()).toEqual(['a', 'b']);
    expect(debouncer.size).toBe(0);
  });

  it('fires after maxWaitMs even while a key keeps changing', () => {
    const fired: string[] = [];
    const debouncer = new KeyedDebouncer<string>({
      waitMs: 100,
      maxWaitMs: 250,
      fire: (key) => fired.push(key),
    });
    // A change every 50 ms never leaves a 100 ms quiet gap.
    for (let t = 0; t < 200; t += 50) {
      debouncer.schedule('a');
      vi.advanceTimersByTime(50);
    }
    debouncer.schedule('a');
    vi.advanceTimersByTime(49);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
  });

  it('clear() drops every pending key and its timer', () => {
    const fire = vi.fn();
    const debouncer = new KeyedDebouncer<string>({ waitMs: 10, fire });
    debouncer.schedule('a');
    debouncer.schedule('b');
    expect(vi.getTimerCount()).toBe(2);
    debouncer.clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(fire).not.toHaveBeenCalled();
  });
});
