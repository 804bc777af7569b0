/**
 * The tools, app and wire the tasks protocol tests (tasks.protocol-*.test.ts) share: one tool per
 * behaviour a task can show (echo, sleep until cancelled, task-only, questions, failures of every
 * kind, progress), and helpers to open apps and wires that are closed after each test.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type InputRequest,
  inputRequired,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { UserError } from '../src/errors/index.js';
import type { Logger } from '../src/logging/index.js';
import type { Answer } from '../src/mrtr/answers.js';
import { type App, createApp, defineTool } from '../src/server/index.js';
import { TASKS_EXTENSION } from '../src/tasks/extension.js';
import { type TaskWire, taskWire } from '../src/testing/task-wire.js';

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

/** What the sleepy and progressive tools are doing, for the tests to watch and steer. */
export const work: {
  /** Where the sleepy tool's work is: it waits until aborted. */
  sleepy: 'idle' | 'waiting' | 'stopped';
  /** Lets the progressive tool finish. */
  releaseProgressive: () => void;
} = { sleepy: 'idle', releaseProgressive: () => {} };

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
      work.sleepy = 'waiting';
      try {
        await sleep(60_000, undefined, { signal: call.signal });
      } finally {
        work.sleepy = 'stopped';
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
        work.releaseProgressive = resolve;
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

/** Everything a test opened (apps, wires, sessions, HTTP servers), closed after each test. */
export const open: Array<{ close(): Promise<void> }> = [];
export async function closeOpen(): Promise<void> {
  for (const o of open.splice(0).reverse()) await o.close();
}

export function makeApp(options: Parameters<typeof createApp>[1] = {}): App {
  const app = createApp({ name: 'tasks-test', version: '0', tools }, options);
  open.push(app);
  return app;
}

export async function connectWire(app: App, defaults: { tasks?: boolean } = {}): Promise<TaskWire> {
  const w = await taskWire(app, defaults);
  open.push(w);
  return w;
}

export const text = (result: { content?: Array<{ type: string; text?: string }> }) =>
  result.content?.[0]?.text;

/** A logger that keeps what it is given, to see what went to the server log. */
export function keptLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
  };
  return { lines, level: 'debug', debug: keep, info: keep, warn: keep, error: keep };
}

/** Request params declaring exactly `capabilities` plus the tasks extension. */
export const declaring = (capabilities: Record<string, unknown>) => ({
  _meta: {
    'io.modelcontextprotocol/clientCapabilities': { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } },
  },
});
