/**
 * The cancellation helpers: throwIfAborted, checkpoint (yielding to the event loop, and stopping
 * after an abort) and withDeadline.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { CancelledError, checkpoint, throwIfAborted, withDeadline } from '../src/progress/cancel.js';

describe('cancellation helpers', () => {
  it('throwIfAborted throws CancelledError only after abort', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    controller.abort();
    expect(() => throwIfAborted(controller.signal)).toThrow(CancelledError);
    const error = new CancelledError();
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('The call was cancelled.');
  });

  it('checkpoint yields to the event loop every N calls', async () => {
    const tick = checkpoint(undefined, 3);
    let macrotasks = 0;
    const count = () => {
      macrotasks++;
    };
    setImmediate(count);
    await tick();
    await tick();
    expect(macrotasks).toBe(0);
    await tick();
    expect(macrotasks).toBe(1);
    setImmediate(count);
    await tick();
    await tick();
    expect(macrotasks).toBe(1);
    await tick();
    expect(macrotasks).toBe(2);
  });

  it('checkpoint throws CancelledError after abort, also when abort lands during the yield', async () => {
    const controller = new AbortController();
    const tick = checkpoint(controller.signal, 2);
    await tick();
    // The abort runs while the second call yields; the check after the yield catches it.
    setImmediate(() => controller.abort());
    await expect(tick()).rejects.toBeInstanceOf(CancelledError);
    await expect(tick()).rejects.toBeInstanceOf(CancelledError);
  });

  it('withDeadline fires on timeout', async () => {
    const signal = withDeadline(undefined, 20);
    expect(signal.aborted).toBe(false);
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('withDeadline fires on timeout with a parent signal that stays quiet', async () => {
    const parent = new AbortController();
    const signal = withDeadline(parent.signal, 20);
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    expect((signal.reason as Error).name).toBe('TimeoutError');
    expect(parent.signal.aborted).toBe(false);
  });

  it('withDeadline follows the parent signal before the deadline', () => {
    const parent = new AbortController();
    const signal = withDeadline(parent.signal, 60_000);
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('client cancelled'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('client cancelled');
  });
});
