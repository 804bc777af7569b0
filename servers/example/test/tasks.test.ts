/**
 * search_notes as a task (2026-07-28 with the tasks extension): a handle at once, the result
 * inlined by tasks/get, and tasks/cancel stops the search. Without the extension, and in the 2025
 * era, the same call answers directly.
 */
import { checkpoint } from '@mcpkit/core/progress';
import { connect, type TaskWire, taskWire, untilTask } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notesFixture, textOf, until, untilAborted } from './fixtures.js';

// search_notes hands its call.signal to checkpoint(); recording that (the real one still runs) lets
// a test see tasks/cancel reach the running search, not only the task's status change.
vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  return { ...real, checkpoint: vi.fn(real.checkpoint) };
});

let fx: Awaited<ReturnType<typeof notesFixture>> | undefined;
let wire: TaskWire | undefined;

afterEach(async () => {
  await wire?.close();
  await fx?.cleanup();
  wire = undefined;
  fx = undefined;
});

describe('search_notes as a task', () => {
  it('answers with a task handle, then the result on tasks/get', async () => {
    fx = await notesFixture();
    wire = await taskWire(fx.app);
    const handle = await wire.request('tools/call', { name: 'search_notes', arguments: { query: 'apples' } });
    expect(handle.resultType).toBe('task');
    expect(typeof handle.taskId).toBe('string');
    const done = await untilTask(wire, handle.taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent.hits).toHaveLength(2);
    expect(textOf(done.result)).toContain('alpha:2: The first note mentions apples.');
  });

  // A cancel the search never sees leaves the wait below to the generous test timeout.
  it('stops the search when the task is cancelled', { timeout: 30_000 }, async () => {
    fx = await notesFixture();
    wire = await taskWire(fx.app);
    const started = vi.mocked(checkpoint).mock.calls.length;
    const handle = await wire.request('tools/call', {
      name: 'search_notes',
      arguments: { query: 'apples', delayMs: 2000 },
    });
    await until(() => vi.mocked(checkpoint).mock.calls.length > started);
    const signal = vi.mocked(checkpoint).mock.calls[started]?.[0] as AbortSignal;
    expect(signal.aborted).toBe(false);
    const ack = await wire.request('tasks/cancel', { taskId: handle.taskId });
    expect(ack).toEqual(expect.objectContaining({ resultType: 'complete' }));
    const after = await untilTask(wire, handle.taskId, 'cancelled');
    expect(after.status).toBe('cancelled');
    expect(after.result).toBeUndefined();
    // The running search's signal fired: the work stopped, not only its status.
    await untilAborted(signal);
  });

  it('answers directly to a client without the extension, and in the 2025 era', async () => {
    fx = await notesFixture();
    wire = await taskWire(fx.app, { tasks: false });
    const direct = await wire.request('tools/call', { name: 'search_notes', arguments: { query: 'apples' } });
    expect(direct.taskId).toBeUndefined();
    expect(direct.structuredContent.hits).toHaveLength(2);

    const session = await connect(fx.app, { era: 'legacy' });
    try {
      const legacy = await session.client.callTool({ name: 'search_notes', arguments: { query: 'apples' } });
      expect((legacy.structuredContent as { hits: unknown[] }).hits).toHaveLength(2);
    } finally {
      await session.close();
    }
  });
});
