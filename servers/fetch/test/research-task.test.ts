/**
 * research as a 2026 task (tasks extension declared): a handle at once, then the client's model is
 * asked inside the task, through `tasks/get`'s input_required questions answered on `tasks/update`,
 * and the task completes with the answer and the pages read. `tasks/cancel` stops the page read
 * under way: the 127.0.0.1 server sees its socket closed, with a total deadline far too long to
 * have done it. A 2025 client asking for a task gets the research answered directly.
 */
import { TASKS_EXTENSION } from '@mcpkit/core/tasks';
import {
  scriptedModel,
  type TaskWire,
  type TaskWireResult,
  taskWire,
  textOf,
  untilTask,
} from '@mcpkit/core/testing';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { TEST_LIMITS } from './support/clients.js';
import { type Handler, text } from './support/local-server.js';
import { type ToolsFixture, toolsFixture, withPort } from './support/tools-kit.js';

/** A client that samples with tools and declares tasks: research's questions can be answered. */
const SAMPLING_TASK_CLIENT = {
  _meta: {
    'io.modelcontextprotocol/clientCapabilities': {
      sampling: { tools: {} },
      extensions: { [TASKS_EXTENSION]: {} },
    },
  },
};

/** Only a cancel can end a download here: the total deadline is ten minutes. */
const LONG_LIMITS = {
  ...TEST_LIMITS,
  totalTimeoutMs: 600_000,
  firstByteTimeoutMs: 2_000,
  connectTimeoutMs: 2_000,
};

type Model = ReturnType<typeof scriptedModel>;

let fx: ToolsFixture | undefined;
let wire: TaskWire | undefined;

afterEach(async () => {
  await wire?.close();
  await fx?.close();
  wire = undefined;
  fx = undefined;
});

/** Polls until `condition` holds; no deadline of its own (one that never holds is the test timeout's). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * Answers the task's model questions with `model`, for `rounds` rounds at most; returns the task
 * once it has ended, or `undefined` after the last round answered.
 */
async function answerQuestions(
  w: TaskWire,
  taskId: string,
  model: Model,
  rounds = Number.POSITIVE_INFINITY,
): Promise<TaskWireResult | undefined> {
  for (let round = 0; round < rounds; round++) {
    const task = await untilTask(w, taskId, 'input_required');
    if (task.status !== 'input_required') return task;
    const inputResponses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(
      task.inputRequests as Record<string, { method: string; params: CreateMessageRequestParams }>,
    )) {
      expect(request.method).toBe('sampling/createMessage');
      inputResponses[key] = await model.respond(request.params);
    }
    await w.request('tasks/update', { taskId, inputResponses });
  }
  return undefined;
}

/** Headers at once, then a byte every 100 ms until the client goes away. */
function drip() {
  const state = { opened: 0, closed: 0 };
  const handler: Handler = (_req, res) => {
    state.opened++;
    res.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => res.write('.'), 100);
    res.on('close', () => {
      clearInterval(timer);
      state.closed++;
    });
  };
  return { state, handler };
}

describe('research as a 2026 task', () => {
  it('asks the model inside the task and completes with its answer', async () => {
    fx = await toolsFixture('modern');
    const server = fx.server;
    const model = scriptedModel({
      toolCalls: [{ name: 'fetch', input: { url: 'http://site.test:{port}/alpha' } }],
      answer: () => 'Apples grow on the alpha page.',
    });
    const respond = withPort(model.respond, () => server.port);
    wire = await taskWire(fx.app);
    const handle = await wire.request('tools/call', {
      name: 'research',
      arguments: { url: fx.url('/index'), question: 'What grows there?' },
      ...SAMPLING_TASK_CLIENT,
    });
    expect(handle.resultType).toBe('task');
    const done = await answerQuestions(wire, handle.taskId, { ...model, respond });
    expect(done?.status).toBe('completed');
    expect(done?.result.structuredContent).toEqual({
      answer: 'Apples grow on the alpha page.',
      urls: [fx.url('/index'), fx.url('/alpha')],
      model: 'scripted',
      sampled: true,
    });
    expect(textOf(done?.result)).toContain('Apples grow on the alpha page.');
    // Two questions: one that lent the fetch tool, one after the page it read.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['fetch']);
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('Apples grow on the alpha page, which');
    expect(fx.server.hits('/alpha')).toBe(1);
  });

  it('stops the page read under way when the task is cancelled', { timeout: 30_000 }, async () => {
    fx = await toolsFixture('modern', { app: { limits: LONG_LIMITS } });
    const server = fx.server;
    const slow = drip();
    server.route('/slow', slow.handler);
    server.route(
      '/start',
      text(
        '<html><body><main><h1>Start</h1><p>Read the <a href="/slow">slow page</a>.</p></main></body></html>',
      ),
    );
    const model = scriptedModel({
      toolCalls: [{ name: 'fetch', input: { url: 'http://site.test:{port}/slow' } }],
      answer: () => 'never',
    });
    const respond = withPort(model.respond, () => server.port);
    wire = await taskWire(fx.app);
    const handle = await wire.request('tools/call', {
      name: 'research',
      arguments: { url: fx.url('/start'), question: 'What is slow?' },
      ...SAMPLING_TASK_CLIENT,
    });
    // The model's first answer asks to read /slow; the task then downloads it, a byte at a time.
    await answerQuestions(wire, handle.taskId, { ...model, respond }, 1);
    await until(() => slow.state.opened === 1);
    expect((await wire.request('tasks/get', { taskId: handle.taskId })).status).toBe('working');
    await wire.request('tasks/cancel', { taskId: handle.taskId });
    const after = await untilTask(wire, handle.taskId, 'cancelled');
    expect(after.status).toBe('cancelled');
    expect(after.result).toBeUndefined();
    // The download itself ended: the site saw its socket closed, and the model was not asked again.
    await until(() => slow.state.closed === 1);
    expect(model.requests).toHaveLength(1);
  });
});

describe('research asked for as a task in the 2025 era', () => {
  it('is answered directly: the 2025 tasks are not offered', async () => {
    const model = scriptedModel({ answer: () => 'Bananas.' });
    fx = await toolsFixture('legacy', { connect: { sampling: model.respond } });
    const result = await fx.session.client.request(
      {
        method: 'tools/call',
        params: {
          name: 'research',
          arguments: { url: fx.url('/beta'), question: 'Which fruit?' },
          task: { ttl: 60_000 },
        },
      },
      z.looseObject({}),
    );
    expect(result).not.toHaveProperty('task');
    expect(result.structuredContent).toEqual({
      answer: 'Bananas.',
      urls: [fx.url('/beta')],
      model: 'scripted',
      sampled: true,
    });
    expect(model.requests).toHaveLength(1);
  });
});
