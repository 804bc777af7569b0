/**
 * Tasks in the 2026 era that go wrong: a tool error completes with isError, a protocol error fails
 * the task with no more than a synchronous call would show, and bad arguments make no task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { untilTask } from '../src/testing/task-wire.js';
import { closeOpen, connectWire, keptLog, makeApp } from './tasks-protocol-kit.js';

afterEach(closeOpen);

describe('tasks, 2026 era', () => {
  it('reports a tool error as completed with isError, and a protocol error as failed', async () => {
    const w = await connectWire(makeApp());
    const soft = await w.request('tools/call', { name: 'user_fail', arguments: {} });
    const softDone = await untilTask(w, soft.taskId, 'completed');
    expect(softDone.status).toBe('completed');
    expect(softDone.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The job could not run; check its input.' }],
    });

    const hard = await w.request('tools/call', { name: 'explode', arguments: {} });
    const hardDone = await untilTask(w, hard.taskId, 'failed');
    expect(hardDone.status).toBe('failed');
    const generic = 'explode failed because of an internal error; the server log has the details.';
    expect(hardDone.error).toEqual({ code: -32603, message: generic });
    expect(hardDone.statusMessage).toBe(generic);
    expect(hardDone).not.toHaveProperty('result');
  });

  it('keeps an internal protocol error out of the task, as a synchronous call does, and logs it', async () => {
    const log = keptLog();
    const w = await connectWire(makeApp({ log }));
    const created = await w.request('tools/call', { name: 'leaky', arguments: {} });
    const done = await untilTask(w, created.taskId, 'failed');
    expect(done.error).toEqual({
      code: -32603,
      message: 'leaky failed because of an internal error; the server log has the details.',
    });
    expect(JSON.stringify(done)).not.toMatch(/alice|secret|inner|at /);
    expect(log.lines.join('\n')).toMatch(
      /leaky failed in a task: .*upstream failed reading \/home\/alice\/\.secret/,
    );
  });

  it('passes the client its own mistakes (-32602) and missing capabilities (-32021), with no other data', async () => {
    const w = await connectWire(makeApp());
    const bad = await w.request('tools/call', { name: 'bad_cursor', arguments: {} });
    expect((await untilTask(w, bad.taskId, 'failed')).error).toEqual({
      code: -32602,
      message: 'The cursor is not valid; list again from the start.',
    });
    const missing = await w.request('tools/call', { name: 'needs_capability', arguments: {} });
    expect((await untilTask(w, missing.taskId, 'failed')).error).toEqual({
      code: -32021,
      message: 'This tool needs the client to share its roots.',
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it('refuses bad arguments as for any tool, without making a task', async () => {
    const w = await connectWire(makeApp());
    const bad = await w.request('tools/call', { name: 'echo_task', arguments: { text: 1 } });
    expect(bad.resultType).toBe('complete');
    expect(bad.isError).toBe(true);
  });
});
