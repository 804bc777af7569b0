import type { ServerContext } from '@modelcontextprotocol/server';
import type { FlowState } from '../mrtr/flow.js';

/** What one leg of a task's work runs with, in place of a live request. */
export interface TaskLeg {
  /** The task's own signal: it outlives the request that started it. */
  signal: AbortSignal;
  /** The flow state of the previous leg (or of the request's last multi-round retry). */
  state: FlowState | undefined;
  /** The answers the client gave to the previous leg's questions. */
  responses: Record<string, unknown> | undefined;
  /** Receives the tool's progress reports, already worded as a status message. */
  onProgress(message: string): void;
}

/** Longest status message a progress report may set: it is polled every second or so. */
const MAX_STATUS_CHARS = 500;

/** The progress token tasks run under: never sent anywhere, it only switches reporting on. */
const TASK_PROGRESS_TOKEN = 'task';

function refuse(): Promise<never> {
  return Promise.reject(
    new Error('A task has no open request to the client; ask with call.flow.ask instead.'),
  );
}

/** Words a progress notification as a status message: its own message, or the numbers. */
export function progressMessage(params: Record<string, unknown>): string | undefined {
  const { message, progress, total } = params;
  if (typeof message === 'string' && message.trim() !== '') {
    return message.length > MAX_STATUS_CHARS ? `${message.slice(0, MAX_STATUS_CHARS)}…` : message;
  }
  if (typeof progress !== 'number') return undefined;
  return typeof total === 'number' ? `Progress: ${progress} of ${total}.` : `Progress: ${progress}.`;
}

/**
 * The request context a task's work sees. It is the context of the `tools/call` that created the
 * task (the client's capabilities, its auth), with what belongs to that request taken away: the
 * request has been answered with the task handle, so its progress token, its log channel and its
 * cancellation no longer apply. Questions go through the flow instead and reach the client on
 * `tasks/get`; progress reports become the task's status message (SEP-2663 lets `statusMessage`
 * carry any human-readable state), so `tasks/get` shows the latest one.
 */
export function taskContext(origin: ServerContext, leg: TaskLeg): ServerContext {
  const { _meta, inputResponses, droppedInputResponseKeys, ...request } = origin.mcpReq;
  return {
    ...origin,
    mcpReq: {
      ...request,
      _meta: { progressToken: TASK_PROGRESS_TOKEN },
      ...(leg.responses !== undefined ? { inputResponses: leg.responses } : {}),
      requestState: <T>() => leg.state as T | undefined,
      signal: leg.signal,
      notify: async (notification: { method: string; params?: Record<string, unknown> }) => {
        if (notification.method !== 'notifications/progress') return;
        const message = progressMessage(notification.params ?? {});
        if (message !== undefined) leg.onProgress(message);
      },
      log: async () => {},
      send: refuse,
      elicitInput: refuse,
      requestSampling: refuse,
    },
  };
}
