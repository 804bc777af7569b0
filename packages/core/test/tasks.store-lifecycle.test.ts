/**
 * TaskStore, the life of a task: unguessable ids seen by their principal only, the TTL and the
 * sweep, cancelling, failing, progress as the status message, closing, and the options and their
 * defaults.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../src/tasks/store.js';
import { ASK, clock, closeStores, KiB, RESULT, store } from './tasks-store-kit.js';

afterEach(closeStores);

describe('task store', () => {
  it('makes unguessable ids: 192 random bits, never repeated', () => {
    const s = store({ maxLivePerPrincipal: 2000, maxKeptPerPrincipal: 2000, maxTasks: 2000 });
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) ids.add(s.create('p').id);
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(24);
  });

  it('shows a task to its principal only, and to no one else', () => {
    const s = store();
    const task = s.create('alice');
    expect(s.get(task.id, 'alice')?.status).toBe('working');
    expect(s.get(task.id, 'bob')).toBeUndefined();
    expect(s.get('no-such-id', 'alice')).toBeUndefined();
    expect(s.cancel(task.id, 'bob')).toBe(false);
    expect(s.answer(task.id, 'bob', {})).toBe(false);
    expect(s.get(task.id, 'alice')?.status).toBe('working');
    expect(task.signal.aborted).toBe(false);
  });

  it('keeps a task for its whole TTL, then forgets it and stops its work', () => {
    const s = store({ ttlMs: 10_000 });
    const task = s.create('p');
    clock.now += 9_999;
    expect(s.get(task.id, 'p')?.ttlMs).toBe(10_000);
    clock.now += 1;
    expect(s.get(task.id, 'p')).toBeUndefined();
    expect(task.signal.aborted).toBe(true);
    expect(s.size).toBe(0);
  });

  it('sweeps expired tasks, finished or not', () => {
    const s = store({ ttlMs: 1_000 });
    const done = s.create('p');
    done.complete(RESULT);
    const running = s.create('p');
    clock.now += 1_000;
    s.sweep();
    expect(s.size).toBe(0);
    expect(running.signal.aborted).toBe(true);
  });

  it('cancels once: aborts the work, keeps `cancelled`, and leaves finished tasks alone', () => {
    const s = store();
    const task = s.create('p');
    expect(s.cancel(task.id, 'p')).toBe(true);
    expect(task.signal.aborted).toBe(true);
    expect(s.get(task.id, 'p')?.status).toBe('cancelled');
    expect(s.cancel(task.id, 'p')).toBe(true);
    task.complete(RESULT);
    expect(s.get(task.id, 'p')).toMatchObject({ status: 'cancelled' });
    expect(s.get(task.id, 'p')).not.toHaveProperty('result');

    const done = s.create('p');
    done.complete(RESULT);
    expect(s.cancel(done.id, 'p')).toBe(true);
    expect(s.get(done.id, 'p')).toMatchObject({ status: 'completed', result: RESULT });
    expect(done.signal.aborted).toBe(false);
  });

  it('records a failure with its JSON-RPC error', () => {
    const s = store();
    const task = s.create('p');
    task.fail({ code: -32603, message: 'It broke.' });
    expect(s.get(task.id, 'p')).toMatchObject({
      status: 'failed',
      statusMessage: 'It broke.',
      error: { code: -32603, message: 'It broke.' },
    });
  });

  it('stops everything on close and starts nothing after', () => {
    const s = store();
    const task = s.create('p');
    s.close();
    expect(task.signal.aborted).toBe(true);
    expect(() => s.create('p')).toThrow(/shutting down/);
  });

  it('shows the latest progress report as the status message of a working task only', () => {
    const s = store();
    const task = s.create('p');
    clock.now += 5;
    task.report('Indexed 3 of 10 files.');
    expect(s.get(task.id, 'p')).toMatchObject({
      statusMessage: 'Indexed 3 of 10 files.',
      updatedAt: 1_000_005,
    });
    task.needInput({ a: ASK }).catch(() => {});
    task.report('Indexed 4 of 10 files.');
    expect(s.get(task.id, 'p')?.statusMessage).toMatch(/waiting for the client/);
    task.complete(RESULT);
    task.report('Indexed 5 of 10 files.');
    expect(s.get(task.id, 'p')).not.toHaveProperty('statusMessage');
  });

  it('refuses options that cannot work', () => {
    expect(() => new TaskStore({ ttlMs: 0 })).toThrow(/ttlMs must be a positive integer/);
    expect(() => new TaskStore({ pollIntervalMs: 1.5 })).toThrow(/pollIntervalMs/);
    expect(() => new TaskStore({ maxLivePerPrincipal: 8, maxKeptPerPrincipal: 4 })).toThrow(/at least/);
    expect(() => new TaskStore({ maxResultBytes: 1_000 })).toThrow(
      /maxResultBytes must be an integer of at least 65536/,
    );
    expect(() => new TaskStore({ inputTimeoutMs: 0 })).toThrow(/inputTimeoutMs/);
  });

  it('has documented defaults: 30 minutes, 10 minutes for answers, 64 MiB of results', () => {
    const s = store();
    expect([s.ttlMs, s.inputTimeoutMs, s.maxResultBytes]).toEqual([1_800_000, 600_000, 64 * 1024 * KiB]);
    expect(s.get(s.create('p').id, 'p')?.ttlMs).toBe(1_800_000);
  });
});
