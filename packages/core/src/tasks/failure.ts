import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Logger } from '../logging/logger.js';
import { errorResult } from '../server/tool-run.js';
import type { TaskError } from './types.js';

/**
 * Codes whose message is meant for the client: its own bad argument (-32602, which a synchronous
 * call also shows), and a capability it must declare (-32021). Anything else thrown as a protocol
 * error is the server's business and may carry paths, hosts or stacks.
 */
const FOR_THE_CLIENT: ReadonlySet<number> = new Set([
  ProtocolErrorCode.InvalidParams,
  ProtocolErrorCode.MissingRequiredClientCapability,
]);

/** Longest message a passed-through error keeps: it is also the task's status message. */
const MAX_MESSAGE_CHARS = 1_000;

/** Longest `requiredCapabilities` kept, serialised: a capability list is a few dozen bytes. */
const MAX_DATA_CHARS = 4_096;

/** How a task's work ended in an error: as a failed task, or as a tool error result. */
export type TaskFailure = { fail: TaskError } | { complete: CallToolResult };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The only `data` passed on: -32021's `requiredCapabilities`, copied as plain JSON. Any other data
 * is dropped, whatever the code, since the client cannot tell a safe field from a leaked one.
 */
function safeData(code: number, data: unknown): unknown {
  if (code !== ProtocolErrorCode.MissingRequiredClientCapability || !isPlainObject(data)) return undefined;
  const required = data.requiredCapabilities;
  if (!isPlainObject(required)) return undefined;
  const json = JSON.stringify(required);
  if (json === undefined || json.length > MAX_DATA_CHARS) return undefined;
  return { requiredCapabilities: JSON.parse(json) as unknown };
}

/**
 * Maps what a task's work threw to its outcome, as the synchronous path (`errorResult`) does: a
 * protocol error the client must see fails the task with its code and message; any other protocol
 * error fails it with one generic sentence and goes to the server log; everything else (user
 * errors, bugs) becomes the same tool error result a synchronous call would return.
 */
export function taskFailure(log: Logger, tool: string, error: unknown): TaskFailure {
  if (!(error instanceof ProtocolError)) return { complete: errorResult(log, tool, error) };
  if (FOR_THE_CLIENT.has(error.code)) {
    const data = safeData(error.code, error.data);
    const message =
      error.message.length > MAX_MESSAGE_CHARS
        ? `${error.message.slice(0, MAX_MESSAGE_CHARS)}…`
        : error.message;
    return { fail: { code: error.code, message, ...(data !== undefined ? { data } : {}) } };
  }
  log.error(`${tool} failed in a task: ${error.stack ?? error.message}`);
  return {
    fail: {
      code: ProtocolErrorCode.InternalError,
      message: `${tool} failed because of an internal error; the server log has the details.`,
    },
  };
}
