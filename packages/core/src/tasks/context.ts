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
}

function refuse(): Promise<never> {
  return Promise.reject(
    new Error('A task has no open request to the client; ask with call.flow.ask instead.'),
  );
}

/**
 * The request context a task's work sees. It is the context of the `tools/call` that created the
 * task (the client's capabilities, its auth), with what belongs to that request taken away: the
 * request has been answered with the task handle, so its progress token, its log channel and its
 * cancellation no longer apply. Questions go through the flow instead and reach the client on
 * `tasks/get`.
 */
export function taskContext(origin: ServerContext, leg: TaskLeg): ServerContext {
  const { _meta, inputResponses, droppedInputResponseKeys, ...request } = origin.mcpReq;
  return {
    ...origin,
    mcpReq: {
      ...request,
      ...(leg.responses !== undefined ? { inputResponses: leg.responses } : {}),
      requestState: <T>() => leg.state as T | undefined,
      signal: leg.signal,
      notify: async () => {},
      log: async () => {},
      send: refuse,
      elicitInput: refuse,
      requestSampling: refuse,
    },
  };
}
