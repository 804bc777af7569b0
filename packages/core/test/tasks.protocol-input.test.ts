/**
 * Tasks in the 2026 era that need the client: questions asked through tasks/get and answered on
 * tasks/update, questions the client declared it cannot answer, and questions settled by multi-
 * round retries before the task is made.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { untilTask } from '../src/testing/task-wire.js';
import { closeOpen, connectWire, declaring, makeApp, text } from './tasks-protocol-kit.js';

afterEach(closeOpen);

describe('tasks, 2026 era', () => {
  it('asks through tasks/get and resumes on tasks/update, one answer at a time', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'two_questions', arguments: {} });
    const waiting = await untilTask(w, created.taskId, 'input_required');
    expect(waiting.status).toBe('input_required');
    expect(Object.keys(waiting.inputRequests).sort()).toEqual(['first', 'second']);
    expect(waiting.inputRequests.first.method).toBe('elicitation/create');

    const ack = await w.request('tasks/update', {
      taskId: created.taskId,
      inputResponses: { first: { action: 'accept', content: { name: 'Ada' } }, stray: { action: 'decline' } },
    });
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual(['resultType']);
    const half = await w.request('tasks/get', { taskId: created.taskId });
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['second']);

    await w.request('tasks/update', {
      taskId: created.taskId,
      inputResponses: { second: { action: 'accept', content: { name: 'Grace' } } },
    });
    const done = await untilTask(w, created.taskId, 'completed');
    expect(text(done.result)).toBe('Ada and Grace');
  });

  it('fails a task whose question the client declared it cannot answer, instead of parking it', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'needs_roots', arguments: {} });
    const done = await untilTask(w, created.taskId, 'failed');
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
  });

  it('fails at once, as a synchronous call does, when sampling needs tools the client did not declare', async () => {
    const w = await connectWire(makeApp());
    const sync = await w.error(
      'tools/call',
      {
        name: 'needs_sampling_tools',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } },
      },
      { tasks: false },
    );
    expect(sync.code).toBe(-32021);
    const created = await w.request('tools/call', {
      name: 'needs_sampling_tools',
      arguments: {},
      ...declaring({ sampling: {} }),
    });
    const done = await untilTask(w, created.taskId, 'failed');
    expect(done.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: { tools: {} } } },
    });

    const able = await w.request('tools/call', {
      name: 'needs_sampling_tools',
      arguments: {},
      ...declaring({ sampling: { tools: {} } }),
    });
    expect((await untilTask(w, able.taskId, 'input_required')).status).toBe('input_required');
  });

  it('fails at once when a URL-mode question meets a client that declared form mode only', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', {
      name: 'needs_url',
      arguments: {},
      ...declaring({ elicitation: { form: {} } }),
    });
    const done = await untilTask(w, created.taskId, 'failed');
    expect(done.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    // A bare `elicitation: {}` means form mode (2025 reading), so a form question may wait.
    const form = await w.request('tools/call', {
      name: 'two_questions',
      arguments: {},
      ...declaring({ elicitation: {} }),
    });
    expect((await untilTask(w, form.taskId, 'input_required')).status).toBe('input_required');
  });

  it('settles questions asked before the task by multi-round retries, then makes the task', async () => {
    const w = await connectWire(makeApp());
    const round1 = await w.request('tools/call', { name: 'greet_later', arguments: {} });
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    expect(Object.keys(round1.inputRequests)).toEqual(['user_name']);
    const round2 = await w.request('tools/call', {
      name: 'greet_later',
      arguments: {},
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: round1.requestState,
    });
    expect(round2.resultType).toBe('task');
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const done = await untilTask(w, round2.taskId, 'completed');
    expect(text(done.result)).toBe('Hello, Alice!');
  });
});
