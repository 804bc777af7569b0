import type { CallToolResult } from '@modelcontextprotocol/server';

/** Charged per finished task on top of its outcome: the record, its id, its map entries. */
export const TASK_OVERHEAD_BYTES = 512;

/**
 * Memory a string may hold: V8 stores one or two bytes per UTF-16 unit, so `length * 2` never
 * undercounts (UTF-8 byte counts do, by up to half, for text outside Latin-1).
 */
export function stringBytes(text: string): number {
  return text.length * 2;
}

/** What replaces a result larger than the whole budget for kept results. */
export const TOO_LARGE_RESULT: CallToolResult = Object.freeze({
  isError: true,
  content: [
    {
      type: 'text',
      text:
        'The result was too large to keep for a task; call the tool again without the tasks ' +
        'extension, or ask for less.',
    },
  ],
}) as CallToolResult;

/**
 * A finished result as the store keeps it: serialised once, so what it holds is exactly one
 * string whose size is known, and no later change to the tool's objects can reach it.
 */
export interface KeptResult {
  readonly json: string;
  readonly bytes: number;
}

/** Serialises `result`, or the too-large notice when it alone would exceed `budget` bytes. */
export function keepResult(result: CallToolResult, budget: number): KeptResult {
  const json = JSON.stringify(result);
  const bytes = stringBytes(json) + TASK_OVERHEAD_BYTES;
  if (bytes <= budget) return { json, bytes };
  const notice = JSON.stringify(TOO_LARGE_RESULT);
  return { json: notice, bytes: stringBytes(notice) + TASK_OVERHEAD_BYTES };
}
