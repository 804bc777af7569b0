import { inputRequired } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import type { TaskStoreOptions } from '../src/tasks/index.js';
import { TASK_OVERHEAD_BYTES, TOO_LARGE_RESULT } from '../src/tasks/outcome.js';
import { INPUT_TIMEOUT_CODE, TaskStore } from '../src/tasks/store.js';

const RESULT = { content: [{ type: 'text' as const, text: 'done' }] };
const KiB = 1024;
/** A result whose serialised form is close to `chars` characters long. */
const sized = (chars: number, mark = 'x') => ({
  content: [{ type: 'text' as const, text: mark.repeat(chars) }],
});
/** What the store charges for keeping `result` (two bytes per character, plus the fixed charge). */
const charge = (result: object) => JSON.stringify(result).length * 2 + TASK_OVERHEAD_BYTES;
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

  it('makes room by dropping the task finished first, not the one created first', () => {
    const s = store({ maxLivePerPrincipal: 2, maxKeptPerPrincipal: 2 });
    const long = s.create('p');
    const quick = s.create('p');
    quick.complete(RESULT);
    clock += 1_000;
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
    clock += 1_000;
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
    clock += 1;
    early.complete(RESULT);
    read.complete(RESULT);
    s.get(read.id, 'c');
    s.create('d');
    expect(s.get(read.id, 'c')).toBeUndefined();
    s.create('d');
    expect(s.get(late.id, 'b')).toBeUndefined();
    expect(s.get(early.id, 'a')?.status).toBe('completed');
  });

  it('charges kept results two bytes per character and keeps them within maxResultBytes', () => {
    const s = store({ maxResultBytes: 256 * KiB });
    const result = sized(40 * KiB);
    const tasks = Array.from({ length: 5 }, () => s.create('p'));
    for (const task of tasks) {
      task.complete(result);
      clock += 1;
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
    clock += 1_000;
    s.sweep();
    task.complete(sized(1_000));
    expect(s.resultBytes).toBe(0);
    expect(s.size).toBe(0);
  });

  it('fails a task whose questions go unanswered for inputTimeoutMs, freeing its live slot', async () => {
    const s = store({ inputTimeoutMs: 60_000, maxLivePerPrincipal: 1, maxKeptPerPrincipal: 2 });
    const task = s.create('p');
    const answered = task.needInput({ a: ASK, b: ASK });
    answered.catch(() => {});
    expect(() => s.create('p')).toThrow(/1 unfinished tasks/);
    clock += 59_999;
    s.answer(task.id, 'p', { a: { action: 'accept' } });
    // An answer arrived: the wait starts over.
    clock += 59_999;
    expect(s.get(task.id, 'p')?.status).toBe('input_required');
    clock += 1;
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
    clock += 5_000;
    expect(s.get(waiting.id, 'p')?.status).toBe('failed');
    expect(s.get(working.id, 'p')?.status).toBe('working');
  });

  it('shows the latest progress report as the status message of a working task only', () => {
    const s = store();
    const task = s.create('p');
    clock += 5;
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
