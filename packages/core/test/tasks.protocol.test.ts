import { setTimeout as sleep } from 'node:timers/promises';
import {
  type InputRequest,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { UserError } from '../src/errors/index.js';
import type { Logger } from '../src/logging/index.js';
import type { Answer } from '../src/mrtr/answers.js';
import { startHttpServer } from '../src/runner/http-lazy.js';
import { httpFactory } from '../src/runner/run.js';
import { type App, createApp, defineTool } from '../src/server/index.js';
import { TASKS_EXTENSION } from '../src/tasks/extension.js';
import { connect } from '../src/testing/index.js';
import { httpTaskWire, type TaskWire, taskWire, untilTask } from '../src/testing/task-wire.js';

const NO_ARGS = z.object({});
const RO = { readOnlyHint: true } as const;
const about = (name: string) => ({ name, title: name, description: `The ${name} test tool.` });

const question = (message: string): InputRequest =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
const nameOf = (answer: Answer | undefined) =>
  answer?.kind === 'elicit' ? String(answer.content?.name ?? '?') : '?';

/** Where the sleepy tool's work is: it waits until aborted. */
let sleepy: 'idle' | 'waiting' | 'stopped' = 'idle';

/** Lets the progressive tool finish. */
let releaseProgressive: () => void = () => {};

const ASK_MODEL = inputRequired.createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'Pick a file.' } }],
  maxTokens: 10,
  tools: [{ name: 'list', inputSchema: { type: 'object' } }],
  toolChoice: { mode: 'auto' },
});

const tools = [
  defineTool({
    ...about('echo_task'),
    input: z.object({ text: z.string() }),
    annotations: RO,
    task: 'optional',
    run: ({ text }) => ({ text: `echo: ${text}` }),
  }),
  defineTool({
    ...about('sleepy'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    async run(_args, call) {
      sleepy = 'waiting';
      try {
        await sleep(60_000, undefined, { signal: call.signal });
      } finally {
        sleepy = 'stopped';
      }
      return { text: 'woke up' };
    },
  }),
  defineTool({
    ...about('only_task'),
    input: NO_ARGS,
    annotations: RO,
    task: 'required',
    run: () => ({ text: 'done as a task or not at all' }),
  }),
  defineTool({
    ...about('two_questions'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run(_args, call) {
      const got = call.flow.askAll({ first: question('First name?'), second: question('Second name?') });
      return { text: `${nameOf(got.first)} and ${nameOf(got.second)}` };
    },
  }),
  defineTool({
    ...about('explode'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run() {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The backend refused the job.');
    },
  }),
  defineTool({
    ...about('user_fail'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run() {
      throw new UserError('The job could not run; check its input.');
    },
  }),
  defineTool({
    ...about('greet_later'),
    input: NO_ARGS,
    annotations: RO,
    task: 'required',
    beforeTask(_args, call) {
      call.flow.ask('user_name', question('Who are you?'));
    },
    run(_args, call) {
      return { text: `Hello, ${nameOf(call.flow.ask('user_name', question('Who are you?')))}!` };
    },
  }),
  defineTool({
    ...about('measured'),
    input: NO_ARGS,
    output: z.object({ n: z.number() }),
    annotations: RO,
    task: 'optional',
    run: () => ({ text: 'n is 3', structured: { n: 3 } }),
  }),
  defineTool({
    ...about('needs_roots'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run(_args, call) {
      call.flow.ask('where', inputRequired.listRoots());
      return { text: 'never reached by a client without roots' };
    },
  }),
  defineTool({
    ...about('leaky'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run() {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        'upstream failed reading /home/alice/.secret',
        {
          stack: new Error('inner').stack,
        },
      );
    },
  }),
  defineTool({
    ...about('bad_cursor'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run() {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'The cursor is not valid; list again from the start.',
        {
          path: '/srv/state/cursors.db',
        },
      );
    },
  }),
  defineTool({
    ...about('needs_sampling_tools'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run(_args, call) {
      call.flow.ask('pick', ASK_MODEL);
      return { text: 'picked' };
    },
  }),
  defineTool({
    ...about('needs_url'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run(_args, call) {
      call.flow.ask(
        'login',
        inputRequired.elicitUrl({ message: 'Sign in.', url: 'https://example.com/login' }),
      );
      return { text: 'signed in' };
    },
  }),
  defineTool({
    ...about('needs_capability'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    run() {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { roots: {} } },
        'This tool needs the client to share its roots.',
      );
    },
  }),
  defineTool({
    ...about('progressive'),
    input: NO_ARGS,
    annotations: RO,
    task: 'optional',
    async run(_args, call) {
      call.progress.report(3, { total: 10, message: 'Indexed 3 of 10 files.' });
      await new Promise<void>((resolve) => {
        releaseProgressive = resolve;
      });
      return { text: 'indexed' };
    },
  }),
  defineTool({
    ...about('plain'),
    input: NO_ARGS,
    annotations: RO,
    run: () => ({ text: 'plain' }),
  }),
];

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function makeApp(options: Parameters<typeof createApp>[1] = {}): App {
  const app = createApp({ name: 'tasks-test', version: '0', tools }, options);
  open.push(app);
  return app;
}

async function connectWire(app: App, defaults: { tasks?: boolean } = {}): Promise<TaskWire> {
  const w = await taskWire(app, defaults);
  open.push(w);
  return w;
}

const text = (result: { content?: Array<{ type: string; text?: string }> }) => result.content?.[0]?.text;

/** A logger that keeps what it is given, to see what went to the server log. */
function keptLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
  };
  return { lines, level: 'debug', debug: keep, info: keep, warn: keep, error: keep };
}

/** Request params declaring exactly `capabilities` plus the tasks extension. */
const declaring = (capabilities: Record<string, unknown>) => ({
  _meta: {
    'io.modelcontextprotocol/clientCapabilities': { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } },
  },
});

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
    sleepy = 'idle';
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'sleepy', arguments: {} });
    await expect.poll(() => sleepy).toBe('waiting');
    const ack = await w.request('tasks/cancel', { taskId: created.taskId });
    expect(Object.keys(ack).filter((k) => k !== '_meta')).toEqual(['resultType']);
    expect(ack.resultType).toBe('complete');
    const after = await w.request('tasks/get', { taskId: created.taskId });
    expect(after.status).toBe('cancelled');
    await expect.poll(() => sleepy).toBe('stopped');
    expect((await w.request('tasks/cancel', { taskId: created.taskId })).resultType).toBe('complete');
    expect((await w.request('tasks/get', { taskId: created.taskId })).status).toBe('cancelled');

    const quick = await w.request('tools/call', { name: 'echo_task', arguments: { text: 'x' } });
    await untilTask(w, quick.taskId, 'completed');
    expect((await w.request('tasks/cancel', { taskId: quick.taskId })).resultType).toBe('complete');
    expect((await w.request('tasks/get', { taskId: quick.taskId })).status).toBe('completed');
  });

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

  it('shows the latest progress report as the status message on tasks/get', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'progressive', arguments: {} });
    await expect
      .poll(async () => (await w.request('tasks/get', { taskId: created.taskId })).statusMessage)
      .toBe('Indexed 3 of 10 files.');
    releaseProgressive();
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

  it('keeps the output schema’s structured content in the task result', async () => {
    const w = await connectWire(makeApp());
    const created = await w.request('tools/call', { name: 'measured', arguments: {} });
    const done = await untilTask(w, created.taskId, 'completed');
    expect(done.result.structuredContent).toEqual({ n: 3 });
  });

  it('refuses bad arguments as for any tool, without making a task', async () => {
    const w = await connectWire(makeApp());
    const bad = await w.request('tools/call', { name: 'echo_task', arguments: { text: 1 } });
    expect(bad.resultType).toBe('complete');
    expect(bad.isError).toBe(true);
  });

  it('answers the removed tasks/result and tasks/list with -32601', async () => {
    const w = await connectWire(makeApp());
    expect((await w.error('tasks/result', { taskId: 'x' })).code).toBe(-32601);
    expect((await w.error('tasks/list', {})).code).toBe(-32601);
  });

  it('cancels unfinished tasks when the app closes', async () => {
    sleepy = 'idle';
    const app = makeApp();
    const w = await connectWire(app);
    await w.request('tools/call', { name: 'sleepy', arguments: {} });
    await expect.poll(() => sleepy).toBe('waiting');
    await app.close();
    await expect.poll(() => sleepy).toBe('stopped');
  });

  it('leaves an SDK client without the extension on synchronous results (test kit, 2026)', async () => {
    const s = await connect(makeApp(), { era: 'modern' });
    open.push(s);
    expect(text(await s.callTool('echo_task', { text: 'sdk' }))).toBe('echo: sdk');
    await expect(s.callTool('only_task')).rejects.toMatchObject({ code: -32021 });
  });
});

describe('tasks, 2025 era (not offered: the 2025 tasks are a different, replaced design)', () => {
  it('advertises nothing of tasks and lists tools without execution.taskSupport', async () => {
    const s = await connect(makeApp(), { era: 'legacy' });
    open.push(s);
    const caps = s.client.getServerCapabilities() ?? {};
    expect(caps).not.toHaveProperty('tasks');
    expect(caps).not.toHaveProperty('extensions');
    const { tools: listed } = await s.client.listTools();
    expect(listed.find((t) => t.name === 'only_task')?.execution).toBeUndefined();
  });

  it('runs task tools synchronously, even task-only ones', async () => {
    const s = await connect(makeApp(), {
      era: 'legacy',
      elicitation: () => ({ action: 'accept', content: { name: 'Lin' } }),
    });
    open.push(s);
    expect(text(await s.callTool('echo_task', { text: 'old' }))).toBe('echo: old');
    expect(text(await s.callTool('only_task'))).toBe('done as a task or not at all');
    expect(text(await s.callTool('two_questions'))).toBe('Lin and Lin');
    expect(text(await s.callTool('greet_later'))).toBe('Hello, Lin!');
  });

  it('answers the tasks methods with -32601', async () => {
    const s = await connect(makeApp(), { era: 'legacy' });
    open.push(s);
    const request = s.client.request({ method: 'tasks/get', params: { taskId: 'x' } }, z.looseObject({}));
    await expect(request).rejects.toMatchObject({ code: -32601 });
  });
});
