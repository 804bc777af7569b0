/**
 * The task store's public shapes: what a task looks like to readers, what the code running one may
 * do with it. The store itself is in store.ts, its options in options.ts.
 */
import type { CallToolResult, InputRequest } from '@modelcontextprotocol/server';

/** Where a task is in its life; the last three are final. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The JSON-RPC error a failed task carries. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** A task as a reader sees it: a copy, never the store's own record. */
export interface TaskSnapshot {
  readonly id: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The tool's result, once `completed`. */
  readonly result?: CallToolResult;
  /** The protocol error, once `failed`. */
  readonly error?: TaskError;
  /** The questions still open, while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/** What the code running a task may do with it. */
export interface TaskHandle {
  readonly id: string;
  /** Fires when the task is cancelled, expires or the app closes: the work must stop. */
  readonly signal: AbortSignal;
  snapshot(): TaskSnapshot;
  complete(result: CallToolResult): void;
  fail(error: TaskError): void;
  /**
   * Parks the task on `requests` until the client has answered every one (with `tasks/update`,
   * possibly over several calls), then resolves with the answers. Rejects if the task ends first.
   */
  needInput(requests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
  /** Shows `message` as the status message of a working task (its latest progress). */
  report(message: string): void;
}
