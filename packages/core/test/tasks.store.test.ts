import { inputRequired } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { TaskStore, type TaskStoreOptions } from '../src/tasks/index.js';

const RESULT = { content: [{ type: 'text' as const, text: 'done' }] };
const ASK = inputRequired.elicit({
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
});

let clock = 0;
const stores: TaskStore[] = [];
function store(options: TaskStoreOptions = {}): TaskStore {
  clock = 1_000_000;
  const s = new TaskStore({ now: () => clock, ...options });
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

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
    clock += 9_999;
    expect(s.get(task.id, 'p')?.ttlMs).toBe(10_000);
    clock += 1;
    expect(s.get(task.id, 'p')).toBeUndefined();
    expect(task.signal.aborted).toBe(true);
    expect(s.size).toBe(0);
  });

  it('sweeps expired tasks, finished or not', () => {
    const s = store({ ttlMs: 1_000 });
    const done = s.create('p');
    done.complete(RESULT);
    const running = s.create('p');
    clock += 1_000;
    s.sweep();
    expect(s.size).toBe(0);
    expect(running.signal.aborted).toBe(true);
  });

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

  it('stops everything on close and starts nothing after', () => {
    const s = store();
    const task = s.create('p');
    s.close();
    expect(task.signal.aborted).toBe(true);
    expect(() => s.create('p')).toThrow(/shutting down/);
  });

  it('refuses options that cannot work', () => {
    expect(() => new TaskStore({ ttlMs: 0 })).toThrow(/ttlMs must be a positive integer/);
    expect(() => new TaskStore({ pollIntervalMs: 1.5 })).toThrow(/pollIntervalMs/);
    expect(() => new TaskStore({ maxLivePerPrincipal: 8, maxKeptPerPrincipal: 4 })).toThrow(/at least/);
  });
});
