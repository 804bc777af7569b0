import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';
import type { TaskError, TaskSnapshot, TaskStatus } from './types.js';

/**
 * How a tool takes part in tasks: `optional` becomes a task for clients that declared the
 * extension and runs synchronously for the others; `required` refuses the others (-32021).
 */
export type TaskSupport = 'optional' | 'required';

/** The fields every task-bearing message carries (SEP-2663 `Task`). */
export type Task = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Integer milliseconds from creation the task is kept; `null` would mean forever (never sent). */
  ttlMs: number | null;
  /** Integer milliseconds between polls the server suggests. */
  pollIntervalMs?: number;
};

/** `tools/call`'s answer when the call became a task. Flat: no `task` wrapper, no result. */
export type CreateTaskResult = Task & { resultType: 'task' };

/** `tasks/get`'s answer: the task, with what its status carries inlined. */
export type DetailedTask = Task & {
  /** While `input_required`: the open questions, answered with `tasks/update`. */
  inputRequests?: Record<string, InputRequest>;
  /** Once `completed`: the tool's result, exactly as a synchronous call would have returned it. */
  result?: CallToolResult;
  /** Once `failed`: the JSON-RPC error. */
  error?: TaskError;
};

function taskOf(task: TaskSnapshot): Task {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/** The handle `tools/call` returns instead of a result. */
export function createTaskResult(task: TaskSnapshot): CreateTaskResult {
  return { resultType: 'task', ...taskOf(task) };
}

/** The task as `tasks/get` reports it: only the payload its status calls for. */
export function detailedTask(task: TaskSnapshot): DetailedTask {
  const base = taskOf(task);
  switch (task.status) {
    case 'input_required':
      return { ...base, inputRequests: { ...task.inputRequests } };
    case 'completed':
      return task.result ? { ...base, result: task.result } : base;
    case 'failed':
      return task.error ? { ...base, error: task.error } : base;
    default:
      return base;
  }
}
