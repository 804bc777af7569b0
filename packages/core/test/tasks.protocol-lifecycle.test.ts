/**
 * Tasks in the 2026 era, from handle to end: the extension advertised, a task tool answered with a
 * handle that tasks/get resolves, synchronous runs for a client without the extension, tasks bound
 * to their client across HTTP instances, cancellation, and the app closing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../src/runner/http-lazy.js';
import { httpFactory } from '../src/runner/run.js';
import { TASKS_EXTENSION } from '../src/tasks/extension.js';
import { connect } from '../src/testing/index.js';
import { httpTaskWire, untilTask } from '../src/testing/task-wire.js';
import { closeOpen, connectWire, makeApp, open, text, work } from './tasks-protocol-kit.js';

afterEach(closeOpen);

describe('tasks, 2026 era', () => {
  it('advertises the extension under capabilities.extensions, never capabilities.tasks', async () => {
    const w = await connectWire(makeApp());
    const found = await w.request('server/discover');
    expect(found.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(found.capabilities).not.toHaveProperty('tasks');
  });

  it('answers a task tool with a flat handle that tasks/get resolves at once', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'echo_task', arguments: { text: 'hi' } });
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 1_800_000 });
    expect(created.taskId).toMatch(/^[\w-]{32,}$/);
    expect(Number.isInteger(created.pollIntervalMs)).toBe(true);
    expect(Date.parse(created.createdAt)).not.toBeNaN();
    for (const key of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) {
      expect(created).not.toHaveProperty(key);
    }
    const first = await w.request('tasks/get', { taskId: created.taskId });
    expect(first.taskId).toBe(created.taskId);
    const done = await untilTask(w, created.taskId, 'completed');
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
    expect(done).not.toHaveProperty('requestState');
  });

  it('runs a plain tool, and an optional task tool for a client without the extension, synchronously', async () => {
    const w = await connectWire(makeApp(), { tasks: false });
    const plain = await w.request('tools/call', { name: 'plain', arguments: {} });
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'plain' }] });
    const echo = await w.request('tools/call', { name: 'echo_task', arguments: { text: 'now' } });
    expect(echo.resultType).toBe('complete');
    expect(text(echo)).toBe('echo: now');
    expect(echo).not.toHaveProperty('taskId');
  });

  it('honours the extension declared in one request only', async () => {
    const w = await connectWire(makeApp(), { tasks: false });
    const created = await w.request(
      'tools/call',
      { name: 'echo_task', arguments: { text: 'once' } },
      { tasks: true },
    );
    expect(created.resultType).toBe('task');
  });

  it('refuses a task-only tool and the tasks methods with -32021 to a client without the extension', async () => {
    const w = await connectWire(makeApp(), { tasks: false });
    const refused = await w.error('tools/call', { name: 'only_task', arguments: {} });
    expect(refused.code).toBe(-32021);
    expect(refused.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const error = await w.error(method, { taskId: 'whatever', inputResponses: {} });
      expect(error.code, method).toBe(-32021);
    }
  });

  it('keeps tasks in the app across per-request HTTP instances, each bound to its client', async () => {
    const app = makeApp();
    const clients = new Set(['alice', 'bob']);
    const http = await startHttpServer({
      factory: httpFactory(app),
      verifyToken: (token) => (clients.has(token) ? token : undefined),
    });
    open.push(http);
    const w = httpTaskWire(http.url);
    const alice = { clientId: 'alice' };
    const created = await w.request('tools/call', { name: 'sleepy', arguments: {} }, alice);
    expect((await w.request('tasks/get', { taskId: created.taskId }, alice)).status).toBe('working');

    const unknown = await w.error('tasks/get', { taskId: 'no-such-task' }, alice);
    expect(unknown.code).toBe(-32602);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const other = await w.error(
        method,
        { taskId: created.taskId, inputResponses: {} },
        { clientId: 'bob' },
      );
      expect({ code: other.code, message: other.message }, method).toEqual({
        code: unknown.code,
        message: unknown.message,
      });
    }
    // Bob's cancel did nothing: the task is still Alice's and still running.
    expect((await w.request('tasks/get', { taskId: created.taskId }, alice)).status).toBe('working');
    await w.request('tasks/cancel', { taskId: created.taskId }, alice);
    expect((await w.request('tasks/get', { taskId: created.taskId }, alice)).status).toBe('cancelled');
  });

  it('cancels with an empty ack, stops the work, and acks again on a finished task', async () => {
    work.sleepy = 'idle';
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'sleepy', arguments: {} });
    await expect.poll(() => work.sleepy).toBe('waiting');
    const ack = await w.request('tasks/cancel', { taskId: created.taskId });
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual(['resultType']);
    expect(ack.resultType).toBe('complete');
    const after = await w.request('tasks/get', { taskId: created.taskId });
    expect(after.status).toBe('cancelled');
    await expect.poll(() => work.sleepy).toBe('stopped');
    expect((await w.request('tasks/cancel', { taskId: created.taskId })).resultType).toBe('complete');
    expect((await w.request('tasks/get', { taskId: created.taskId })).status).toBe('cancelled');

    const quick = await w.request('tools/call', { name: 'echo_task', arguments: { text: 'x' } });
    await untilTask(w, quick.taskId, 'completed');
    expect((await w.request('tasks/cancel', { taskId: quick.taskId })).resultType).toBe('complete');
    expect((await w.request('tasks/get', { taskId: quick.taskId })).status).toBe('completed');
  });

  it('answers the removed tasks/result and tasks/list with -32601', async () => {
    const w = await connectWire(makeApp());
    expect((await w.error('tasks/result', { taskId: 'x' })).code).toBe(-32601);
    expect((await w.error('tasks/list', {})).code).toBe(-32601);
  });

  it('cancels unfinished tasks when the app closes', async () => {
    work.sleepy = 'idle';
    const app = makeApp();
    const w = await connectWire(app);
    await w.request('tools/call', { name: 'sleepy', arguments: {} });
    await expect.poll(() => work.sleepy).toBe('waiting');
    await app.close();
    await expect.poll(() => work.sleepy).toBe('stopped');
  });

  it('leaves an SDK client without the extension on synchronous results (test kit, 2026)', async () => {
    const s = await connect(makeApp(), { era: 'modern' });
    open.push(s);
    expect(text(await s.callTool('echo_task', { text: 'sdk' }))).toBe('echo: sdk');
    await expect(s.callTool('only_task')).rejects.toMatchObject({ code: -32021 });
  });
});
