/**
 * StallGuard on a fake clock: which call is given up and with which sentence, which call gets a
 * slot and when, and that local paths are left alone. Bodies are stand-ins that settle when the
 * test says, so a "stuck system call" is a promise that is never settled.
 */
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { SlowPaths } from '../src/roots/slow-paths.js';
import { StallGuard, type StallScope } from '../src/roots/stall-guard.js';

const TIMEOUT = 1_000;
/** Slow because it is added; it need not exist. */
const SHARE = path.join(os.tmpdir(), 'mcpkit-stall-share');
const SLOW = path.join(SHARE, 'private', 'report.txt');
const LOCAL = path.join(os.tmpdir(), 'mcpkit-stall-local', 'notes.txt');

/** Windows reads no mount table: on any machine only the added directory (and UNC shares) is slow. */
const paths = new SlowPaths('win32');

beforeEach(async () => {
  await paths.ready();
  paths.add(SHARE);
  vi.useFakeTimers();
});

afterEach(() => {
  paths.clearAdded();
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

/** How a promise has settled so far, read without awaiting it. */
type Outcome<T> = { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown };

/** A path the body enters, and its display name. */
type Enter = readonly [real: string, display: string];

/** One call under the guard whose body enters its paths and then waits for the test to settle it. */
interface Call {
  run: Promise<string>;
  outcome: Outcome<string>;
  scope: StallScope;
  /** The body got past every `enter`. */
  entered: boolean;
  finish(value?: string): void;
}

function start(guard: StallGuard, enters: Enter | readonly Enter[], signal?: AbortSignal): Call {
  const list = (typeof enters[0] === 'string' ? [enters] : enters) as readonly Enter[];
  let finish: (value: string) => void = () => {};
  const settles = new Promise<string>((resolve) => {
    finish = resolve;
  });
  const call = { entered: false } as Call;
  call.finish = (value = 'done') => finish(value);
  call.run = guard.run(signal ?? new AbortController().signal, async (scope) => {
    call.scope = scope;
    for (const [real, display] of list) await scope.enter(real, display);
    call.entered = true;
    return settles;
  });
  call.outcome = track(call.run);
  return call;
}

function track<T>(promise: Promise<T>): Outcome<T> {
  const outcome: Outcome<T> = { state: 'pending' };
  promise.then(
    (value) => Object.assign(outcome, { state: 'resolved', value }),
    (error: unknown) => Object.assign(outcome, { state: 'rejected', error }),
  );
  return outcome;
}

/** A guard over {@link paths} with the test deadline. */
const guardOf = (slots?: number) => new StallGuard({ timeoutMs: TIMEOUT, slots, paths });

/** Lets every pending promise callback run, without moving the clock. */
const flush = () => vi.advanceTimersByTimeAsync(0);

function messageOf(outcome: Outcome<unknown>): string {
  expect(outcome.state).toBe('rejected');
  expect(outcome.error).toBeInstanceOf(UserError);
  return (outcome.error as UserError).message;
}

describe('StallGuard: the deadline on a slow path', () => {
  it('gives up a body that never settles, with a sentence naming the display name only', async () => {
    const call = start(guardOf(), [SLOW, 'share/report.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT - 1);
    expect(call.outcome.state).toBe('pending');
    expect(call.scope.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const message = messageOf(call.outcome);
    expect(message).toContain('"share/report.txt" did not answer');
    expect(message).not.toContain(SHARE);
    expect(message).not.toContain(os.tmpdir());
    // The stuck work is told to stop, with the same reason.
    expect(call.scope.signal.aborted).toBe(true);
    expect(call.scope.signal.reason).toBe(call.outcome.error);
  });

  it('says it in one sentence', async () => {
    const call = start(guardOf(), [SLOW, 'share/report.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    const rest = messageOf(call.outcome).replace('"share/report.txt"', '"…"');
    expect(rest.match(/[.!?](?=\s|$)/g)).toHaveLength(1);
  });

  it('settles with the body when the body is in time, and aborts nothing', async () => {
    const call = start(guardOf(), [SLOW, 'share/report.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT / 2);
    call.finish('text');
    await expect(call.run).resolves.toBe('text');
    await vi.advanceTimersByTimeAsync(TIMEOUT * 5);
    expect(call.scope.signal.aborted).toBe(false);
  });

  it('starts the deadline again on alive()', async () => {
    const call = start(guardOf(), [SLOW, 'share/report.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 0.8);
    call.scope.alive();
    await vi.advanceTimersByTimeAsync(TIMEOUT * 0.8);
    expect(call.outcome.state).toBe('pending');
    call.scope.alive();
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(messageOf(call.outcome)).toContain('did not answer');
  });

  it('puts no deadline on a body that has not entered', async () => {
    const call = start(guardOf(), []);
    call.scope.alive();
    await vi.advanceTimersByTimeAsync(TIMEOUT * 5);
    expect(call.outcome.state).toBe('pending');
  });

  it('takes one slot and one deadline for a lexical and a real path both on the share', async () => {
    // As RootSet.resolve does: enter the path as given, then its realpath.
    const call = start(guardOf(1), [
      [path.join(SHARE, 'link'), 'share/link'],
      [SLOW, 'share/report.txt'],
    ]);
    await flush();
    expect(call.entered).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(messageOf(call.outcome)).toContain('"share/link" did not answer');
  });

  it('guards a call whose realpath leads from a local path onto the share', async () => {
    const call = start(guardOf(), [
      [LOCAL, 'notes.txt'],
      [SLOW, 'share/report.txt'],
    ]);
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(messageOf(call.outcome)).toContain('"share/report.txt"');
    expect(call.scope.signal.aborted).toBe(true);
  });
});

describe('StallGuard: local paths', () => {
  it('leaves a local body alone: no deadline, it settles when the body does', async () => {
    const call = start(guardOf(), [LOCAL, 'notes.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 10);
    expect(call.outcome.state).toBe('pending');
    expect(call.scope.signal.aborted).toBe(false);
    call.finish('local');
    await expect(call.run).resolves.toBe('local');
  });

  it('runs local calls while every slot is held by a stuck one', async () => {
    const guard = guardOf(1);
    start(guard, [SLOW, 'share/a.txt']);
    const local = start(guard, [LOCAL, 'notes.txt']);
    await flush();
    expect(local.entered).toBe(true);
  });
});

describe('StallGuard: slots', () => {
  it('makes a second slow call wait until the first body settles, not until it is given up', async () => {
    const guard = guardOf(1);
    const order: string[] = [];
    const first = start(guard, [SLOW, 'share/a.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 0.6);
    const second = start(guard, [SLOW, 'share/b.txt']);
    second.run.then(() => order.push('second settled'));
    await flush();
    expect([first.entered, second.entered]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 0.4);
    expect(messageOf(first.outcome)).toContain('"share/a.txt" did not answer');
    order.push('first given up');
    await flush();
    expect(second.entered).toBe(false);
    first.finish();
    order.push('first body settled');
    await flush();
    expect(second.entered).toBe(true);
    second.finish('b');
    await expect(second.run).resolves.toBe('b');
    expect(order).toEqual(['first given up', 'first body settled', 'second settled']);
  });

  it('answers "could not be reached" to a call that waits for a slot past its deadline', async () => {
    const guard = guardOf(1);
    const first = start(guard, [SLOW, 'share/a.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT / 2);
    const second = start(guard, [SLOW, 'share/b.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(messageOf(first.outcome)).toContain('did not answer');
    const message = messageOf(second.outcome);
    expect(message).toContain('"share/b.txt" could not be reached');
    expect(message).not.toContain(SHARE);
    expect(second.scope.signal.aborted).toBe(true);
    // The one that gave up left the queue: when the stuck body settles, a new call gets the slot.
    first.finish();
    await flush();
    const third = start(guard, [SLOW, 'share/c.txt']);
    await flush();
    expect([second.entered, third.entered]).toEqual([false, true]);
  });

  it('hands slots to waiting calls in the order they came', async () => {
    const guard = guardOf(1);
    const first = start(guard, [SLOW, 'share/a.txt']);
    const second = start(guard, [SLOW, 'share/b.txt']);
    const third = start(guard, [SLOW, 'share/c.txt']);
    await flush();
    first.finish();
    await flush();
    expect([second.entered, third.entered]).toEqual([true, false]);
    second.finish();
    await flush();
    expect(third.entered).toBe(true);
  });

  it('sizes the slots after the thread pool, less two, at least one', async () => {
    vi.stubEnv('UV_THREADPOOL_SIZE', '5');
    const wide = guardOf();
    const calls = ['a', 'b', 'c', 'd'].map((name) => start(wide, [SLOW, `share/${name}`]));
    vi.stubEnv('UV_THREADPOOL_SIZE', '1');
    const narrow = guardOf();
    const narrowCalls = ['a', 'b'].map((name) => start(narrow, [SLOW, `share/${name}`]));
    await flush();
    expect(calls.map((c) => c.entered)).toEqual([true, true, true, false]);
    expect(narrowCalls.map((c) => c.entered)).toEqual([true, false]);
  });
});

describe('StallGuard: cancellation', () => {
  it('rejects at once with the abort reason when the call is cancelled while stuck', async () => {
    const controller = new AbortController();
    const call = start(guardOf(), [SLOW, 'share/a.txt'], controller.signal);
    await flush();
    const reason = new Error('cancelled by the client');
    controller.abort(reason);
    await flush();
    expect(call.outcome).toEqual({ state: 'rejected', error: reason });
    expect(call.scope.signal.reason).toBe(reason);
  });

  it('drops a cancelled call from the queue for a slot', async () => {
    const guard = guardOf(1);
    const first = start(guard, [SLOW, 'share/a.txt']);
    const controller = new AbortController();
    const waiting = start(guard, [SLOW, 'share/b.txt'], controller.signal);
    await flush();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await flush();
    expect(waiting.outcome).toEqual({ state: 'rejected', error: reason });
    first.finish();
    await flush();
    const next = start(guard, [SLOW, 'share/c.txt']);
    await flush();
    expect([waiting.entered, next.entered]).toEqual([false, true]);
  });

  // The body stands for a call that takes no signal, such as realpath, stuck on the share.
  it('rejects with the abort reason when cancelled before the call starts', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    const call = start(guardOf(), [SLOW, 'share/a.txt'], controller.signal);
    await flush();
    expect(call.outcome).toEqual({ state: 'rejected', error: reason });
  });

  it('rejects with the abort reason when cancelled on its way to the share', async () => {
    const guard = guardOf();
    const controller = new AbortController();
    const reason = new Error('cancelled');
    // The local enter yields once: the cancel lands before the call reaches the share.
    const call = start(
      guard,
      [
        [LOCAL, 'notes.txt'],
        [SLOW, 'share/a.txt'],
      ],
      controller.signal,
    );
    controller.abort(reason);
    await flush();
    expect(call.outcome).toEqual({ state: 'rejected', error: reason });
  });
});

describe('StallGuard: the scope after the body', () => {
  it('ignores enter after the body settled: no slot, no deadline', async () => {
    const guard = guardOf(1);
    const done = start(guard, [LOCAL, 'notes.txt']);
    done.finish();
    await done.run;
    await done.scope.enter(SLOW, 'share/late.txt');
    const next = start(guard, [SLOW, 'share/a.txt']);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 0.9);
    expect(next.entered).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMEOUT * 5);
    expect(done.scope.signal.aborted).toBe(false);
  });

  it('does not abort a finished call’s signal when alive() comes after the end', async () => {
    const call = start(guardOf(), [SLOW, 'share/a.txt']);
    call.finish();
    await call.run;
    call.scope.alive();
    await vi.advanceTimersByTimeAsync(TIMEOUT * 2);
    expect(call.scope.signal.aborted).toBe(false);
  });

  it.each([
    ['before it enters', () => {}],
    ['while it enters', (scope: StallScope) => void scope.enter(SLOW, 'share/a.txt')],
  ])('frees exactly the slots taken by a body that throws synchronously %s', async (_, first) => {
    const guard = guardOf(1);
    const boom = new Error('boom');
    const run = guard.run(new AbortController().signal, (scope) => {
      first(scope);
      throw boom;
    });
    await expect(run).rejects.toBe(boom);
    await flush();
    // One slot in all: the next call gets it, the one after waits.
    const calls = [start(guard, [SLOW, 'share/b.txt']), start(guard, [SLOW, 'share/c.txt'])];
    await flush();
    expect(calls.map((c) => c.entered)).toEqual([true, false]);
  });
});
