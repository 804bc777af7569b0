/**
 * TaskStore limits on the number of tasks: unfinished tasks per principal and all tasks are capped,
 * and room is made by dropping finished tasks, read ones and those finished first before others.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { clock, closeStores, RESULT, store } from './tasks-store-kit.js';

afterEach(closeStores);

describe('task store', () => {
  it('caps unfinished tasks per principal, and finished ones make room', () => {
    const s = store({ maxLivePerPrincipal: 2, maxKeptPerPrincipal: 3 });
    const first = s.create('p');
    s.create('p');
    expect(() => s.create('p')).toThrow(UserError);
    expect(() => s.create('p')).toThrow(/2 unfinished tasks/);
    expect(s.create('q').id).toBeTruthy();
    first.complete(RESULT);
    const third = s.create('p');
    expect(s.get(first.id, 'p')?.status).toBe('completed');
    third.complete(RESULT);
    // Three kept for p already: the oldest finished one goes.
    s.create('p');
    expect(s.get(first.id, 'p')).toBeUndefined();
    expect(s.get(third.id, 'p')?.status).toBe('completed');
  });

  it('caps all tasks, evicting the oldest finished one first', () => {
    const s = store({ maxTasks: 2 });
    const a = s.create('a');
    s.create('b');
    expect(() => s.create('c')).toThrow(/as many tasks as it allows/);
    a.complete(RESULT);
    s.create('c');
    expect(s.get(a.id, 'a')).toBeUndefined();
    expect(s.size).toBe(2);
  });

  it('makes room by dropping the task finished first, not the one created first', () => {
    const s = store({ maxLivePerPrincipal: 2, maxKeptPerPrincipal: 2 });
    const long = s.create('p');
    const quick = s.create('p');
    quick.complete(RESULT);
    clock.now += 1_000;
    long.complete(RESULT);
    s.create('p');
    expect(s.get(long.id, 'p')?.status).toBe('completed');
    expect(s.get(quick.id, 'p')).toBeUndefined();
  });

  it('drops a finished task its client has read before one it has not, even if that finished later', () => {
    const s = store({ maxLivePerPrincipal: 2, maxKeptPerPrincipal: 3 });
    const unread = s.create('p');
    const read = s.create('p');
    unread.complete(RESULT);
    clock.now += 1_000;
    read.complete(RESULT);
    // A look while it was still working does not count as delivery; this one does.
    expect(s.get(read.id, 'p')?.status).toBe('completed');
    s.create('p');
    s.create('p');
    expect(s.get(read.id, 'p')).toBeUndefined();
    expect(s.get(unread.id, 'p')?.status).toBe('completed');
  });

  it('applies the same order to the app-wide cap', () => {
    const s = store({ maxTasks: 3 });
    const early = s.create('a');
    const late = s.create('b');
    const read = s.create('c');
    late.complete(RESULT);
    clock.now += 1;
    early.complete(RESULT);
    read.complete(RESULT);
    s.get(read.id, 'c');
    s.create('d');
    expect(s.get(read.id, 'c')).toBeUndefined();
    s.create('d');
    expect(s.get(late.id, 'b')).toBeUndefined();
    expect(s.get(early.id, 'a')?.status).toBe('completed');
  });
});
