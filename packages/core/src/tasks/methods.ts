import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { declaresTasks, tasksCapabilityMissing } from './extension.js';
import { principalOf } from './principal.js';
import { type DetailedTask, detailedTask } from './shapes.js';
import type { TaskStore } from './store.js';

// Loose: a client may echo fields this server never sends (`requestState` from older drafts).
const TaskIdParams = z.looseObject({ taskId: z.string() });

/** The extension's methods answer only clients that declared it on that very request. */
function requireTasks(ctx: ServerContext, method: string): void {
  if (!declaresTasks(ctx)) {
    throw tasksCapabilityMissing(
      `${method} is part of the tasks extension; declare it in the request's client capabilities.`,
    );
  }
}

/** One error for an id that never existed, has expired, or belongs to someone else. */
function unknownTask(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'Task not found: the id is unknown or the task has expired.',
  );
}

/**
 * Serves `tasks/get`, `tasks/update` and `tasks/cancel` on one 2026-era instance. `tasks/result`
 * and `tasks/list` of the 2025 design stay unanswered (-32601): the result is inlined in
 * `tasks/get`, and tasks are never listed, so one client cannot learn of another's.
 */
export function serveTaskMethods(mcp: McpServer, store: TaskStore): void {
  const server = mcp.server;
  server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, ctx): DetailedTask => {
    requireTasks(ctx, 'tasks/get');
    const task = store.get(params.taskId, principalOf(ctx));
    if (!task) throw unknownTask();
    return detailedTask(task);
  });
  // The SDK lifts `inputResponses` out of the params into the context, as for a retried call.
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, (params, ctx) => {
    requireTasks(ctx, 'tasks/update');
    if (!store.answer(params.taskId, principalOf(ctx), ctx.mcpReq.inputResponses ?? {})) throw unknownTask();
    return {};
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params, ctx) => {
    requireTasks(ctx, 'tasks/cancel');
    if (!store.cancel(params.taskId, principalOf(ctx))) throw unknownTask();
    return {};
  });
}
