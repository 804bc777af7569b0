/**
 * TaskStore, tasks waiting for answers: every open question waited for, answers taken one at a
 * time, and the wait stopped by a cancel or by inputTimeoutMs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { INPUT_TIMEOUT_CODE } from '../src/tasks/store.js';
import { ASK, clock, closeStores, store } from './tasks-store-kit.js';

afterEach(closeStores);

describe('task store', () => {
  it('waits for every open question, takes answers one at a time, and ignores stray keys', async () => {
    const s = store();
    const task = s.create('p');
    const answered = task.needInput({ a: ASK, b: ASK });
    expect(s.get(task.id, 'p')).toMatchObject({
      status: 'input_required',
      inputRequests: { a: ASK, b: ASK },
    });
    expect(s.answer(task.id, 'p', { a: { action: 'accept' }, zz: { action: 'decline' } })).toBe(true);
    expect(Object.keys(s.get(task.id, 'p')?.inputRequests ?? {})).toEqual(['b']);
    expect(s.answer(task.id, 'p', { a: { action: 'decline' } })).toBe(true);
    s.answer(task.id, 'p', { b: { action: 'cancel' } });
    await expect(answered).resolves.toEqual({ a: { action: 'accept' }, b: { action: 'cancel' } });
    expect(s.get(task.id, 'p')?.status).toBe('working');
    expect(s.get(task.id, 'p')).not.toHaveProperty('inputRequests');
  });

  it('stops waiting for answers when the task is cancelled', async () => {
    const s = store();
    const task = s.create('p');
    const answered = task.needInput({ a: ASK });
    s.cancel(task.id, 'p');
    await expect(answered).rejects.toThrow('The call was cancelled.');
  });

  it('fails a task whose questions go unanswered for inputTimeoutMs, freeing its live slot', async () => {
    const s = store({ inputTimeoutMs: 60_000, maxLivePerPrincipal: 1, maxKeptPerPrincipal: 2 });
    const task = s.create('p');
    const answered = task.needInput({ a: ASK, b: ASK });
    answered.catch(() => {});
    expect(() => s.create('p')).toThrow(/1 unfinished tasks/);
    clock.now += 59_999;
    s.answer(task.id, 'p', { a: { action: 'accept' } });
    // An answer arrived: the wait starts over.
    clock.now += 59_999;
    expect(s.get(task.id, 'p')?.status).toBe('input_required');
    clock.now += 1;
    const next = s.create('p');
    expect(s.get(task.id, 'p')).toMatchObject({
      status: 'failed',
      error: { code: INPUT_TIMEOUT_CODE, message: expect.stringMatching(/waited 1 minute for answers/) },
    });
    expect(task.signal.aborted).toBe(true);
    await expect(answered).rejects.toThrow();
    expect(s.get(next.id, 'p')?.status).toBe('working');
  });

  it('times out a waiting task on get alone, and never a working one', () => {
    const s = store({ inputTimeoutMs: 1_000 });
    const waiting = s.create('p');
    waiting.needInput({ a: ASK }).catch(() => {});
    const working = s.create('p');
    clock.now += 5_000;
    expect(s.get(waiting.id, 'p')?.status).toBe('failed');
    expect(s.get(working.id, 'p')?.status).toBe('working');
  });
});
