/**
 * Tasks in the 2026 era, what tasks/get shows: the latest progress report as the status message,
 * finished results held within AppOptions.tasks.maxResultBytes, and the output schema's structured
 * content.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { untilTask } from '../src/testing/task-wire.js';
import { closeOpen, connectWire, makeApp, text, work } from './tasks-protocol-kit.js';

afterEach(closeOpen);

describe('tasks, 2026 era', () => {
  it('shows the latest progress report as the status message on tasks/get', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'progressive', arguments: {} });
    await expect
      .poll(async () => (await w.request('tasks/get', { taskId: created.taskId })).statusMessage)
      .toBe('Indexed 3 of 10 files.');
    work.releaseProgressive();
    const done = await untilTask(w, created.taskId, 'completed');
    expect(text(done.result)).toBe('indexed');
    expect(done).not.toHaveProperty('statusMessage');
  });

  it('holds finished results within AppOptions.tasks.maxResultBytes, dropping read ones first', async () => {
    const app = makeApp({ tasks: { maxResultBytes: 64 * 1024 } });
    const w = await connectWire(app);
    const run = async (chars: number) => {
      const created = await w.request('tools/call', {
        name: 'echo_task',
        arguments: { text: 'x'.repeat(chars) },
      });
      return untilTask(w, created.taskId, 'completed');
    };
    const first = await run(12_000);
    const second = await run(12_000);
    const third = await run(12_000);
    expect(app.tasks.resultBytes).toBeLessThanOrEqual(64 * 1024);
    // All three were read by polling; the first finished is the first to go.
    expect((await w.error('tasks/get', { taskId: first.taskId })).code).toBe(-32602);
    expect((await w.request('tasks/get', { taskId: second.taskId })).status).toBe('completed');
    expect((await w.request('tasks/get', { taskId: third.taskId })).status).toBe('completed');

    const huge = await run(40_000);
    expect(huge.result).toEqual({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/^The result was too large to keep for a task;/) },
      ],
    });
  });

  it('keeps the output schema’s structured content in the task result', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'measured', arguments: {} });
    const done = await untilTask(w, created.taskId, 'completed');
    expect(done.result.structuredContent).toEqual({ n: 3 });
  });
});
