/**
 * A raw 2026-era client for testing tools that run as tasks (`@mcpkit/core/tasks`). The SDK
 * client (2.4) refuses a `resultType: "task"` answer and knows no `tasks/*` methods, so this one
 * speaks JSON-RPC itself: in memory through the same serving path as stdio, or over Streamable
 * HTTP.
 *
 * @example
 * ```ts
 * const wire = await taskWire(app);
 * const { taskId } = await wire.request('tools/call', { name: 'search_notes', arguments: { query: 'x' } });
 * const done = await untilTask(wire, taskId, 'completed');
 * ```
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveAppStdio } from '../runner/stdio.js';
import type { App } from '../server/types.js';
import { TASKS_EXTENSION } from '../tasks/extension.js';

/** A JSON-RPC error answer, thrown by {@link Wire.request}. */
export class TaskWireError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: results are asserted field by field
export type TaskWireResult = Record<string, any>;

export interface TaskWireRequestOptions {
  /** Declare the tasks extension on this request (default: the wire's own setting). */
  tasks?: boolean;
  /** The client this request comes from (HTTP only: sent as its bearer token). */
  clientId?: string;
}

export interface TaskWire {
  request(
    method: string,
    params?: Record<string, unknown>,
    options?: TaskWireRequestOptions,
  ): Promise<TaskWireResult>;
  /** The error a request is answered with; fails the test if it succeeds. */
  error(
    method: string,
    params?: Record<string, unknown>,
    options?: TaskWireRequestOptions,
  ): Promise<TaskWireError>;
  close(): Promise<void>;
}

interface Answer {
  result?: TaskWireResult;
  error?: TaskWireError;
}

type Send = (message: JSONRPCMessage & { id: number; method: string }, clientId?: string) => Promise<Answer>;

function clientWire(send: Send, defaults: { tasks?: boolean }, close: () => Promise<void>): TaskWire {
  let next = 1;
  const exchange = (method: string, params: Record<string, unknown>, options: TaskWireRequestOptions) => {
    const tasks = options.tasks ?? defaults.tasks ?? true;
    const capabilities = {
      elicitation: { form: {} },
      ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    };
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const message = {
      jsonrpc: '2.0' as const,
      id: next++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'tasks-test', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          ...meta,
        },
      },
    };
    return send(message, options.clientId);
  };
  return {
    async request(method, params = {}, options = {}) {
      const answer = await exchange(method, params, options);
      if (answer.error) throw new TaskWireError(answer.error.code, answer.error.message, answer.error.data);
      return answer.result as TaskWireResult;
    },
    async error(method, params = {}, options = {}) {
      const answer = await exchange(method, params, options);
      if (!answer.error) throw new Error(`${method} succeeded: ${JSON.stringify(answer.result)}`);
      return new TaskWireError(answer.error.code, answer.error.message, answer.error.data);
    },
    close,
  };
}

/**
 * Connects to `app` in memory as a 2026 client that declares the tasks extension unless told
 * otherwise. Memory, like stdio, carries no authentication: every request is the same principal.
 */
export async function taskWire(app: App, defaults: { tasks?: boolean } = {}): Promise<TaskWire> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const handle = serveAppStdio(app, { transport: server });
  const pending = new Map<number, (answer: Answer) => void>();
  client.onmessage = (message) => {
    const id = 'id' in message ? message.id : undefined;
    if (typeof id === 'number') pending.get(id)?.(message as Answer);
  };
  await client.start();
  const send: Send = (message) =>
    new Promise((resolve) => {
      pending.set(message.id, (answer) => {
        pending.delete(message.id);
        resolve(answer);
      });
      void client.send(message);
    });
  return clientWire(send, defaults, async () => {
    await client.close();
    await handle.close();
  });
}

/** Where a request's `Mcp-Name` header comes from (SEP-2243, and SEP-2663 for tasks). */
function mcpName(message: { method: string; params?: Record<string, unknown> }): string | undefined {
  const params = message.params ?? {};
  const value = message.method.startsWith('tasks/') ? params.taskId : params.name;
  return typeof value === 'string' ? value : undefined;
}

/** A 2026 client over Streamable HTTP, one POST per request, each its own server instance. */
export function httpTaskWire(url: string, defaults: { tasks?: boolean } = {}): TaskWire {
  const send: Send = async (message, clientId) => {
    const name = mcpName(message);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': message.method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
        ...(clientId !== undefined ? { authorization: `Bearer ${clientId}` } : {}),
      },
      body: JSON.stringify(message),
    });
    const body = await response.text();
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      return JSON.parse(body) as Answer;
    }
    const events = body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)) as Answer & { id?: unknown });
    const answer = events.find((e) => e.id === message.id);
    if (!answer) throw new Error(`no answer to ${message.method} in ${body}`);
    return answer;
  };
  return clientWire(send, defaults, async () => {});
}

/**
 * Polls `tasks/get` until the task reaches `status` or ends, and returns it for the caller to
 * check. No deadline of its own: a task that never gets there is left to the test's timeout, so
 * a slow machine cannot fail the wait.
 */
export async function untilTask(
  w: TaskWire,
  taskId: string,
  status: string,
  options: TaskWireRequestOptions = {},
): Promise<TaskWireResult> {
  for (;;) {
    const task = await w.request('tasks/get', { taskId }, options);
    if (task.status === status || ['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 10));
  }
}
