/**
 * @internal How a tool call runs, shared by the synchronous path (`register-tool.ts`) and the
 * tasks extension: one round of the handler, the result on the wire, and the error mapping.
 */
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isUserError } from '../errors/index.js';
import { truncateText } from '../limits/index.js';
import type { Logger } from '../logging/logger.js';
import { CancelledError } from '../progress/cancel.js';
import { withCachedJsonSchema } from './json-schema-cache.js';
import type { AnyTool, Call, ToolInput, ToolOutput } from './types.js';

/** The result for a failure: one sentence for a `UserError`, a fixed one for anything else. */
export function errorResult(log: Logger, tool: string, error: unknown): CallToolResult {
  if (isUserError(error)) return { isError: true, content: [{ type: 'text', text: error.message }] };
  // A bad argument found while working (a forged cursor) is the caller's mistake, not ours.
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) {
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
  // Cancellation from a library's own abort (fs, fetch, timers) is not a failure worth logging.
  if (error instanceof Error && error.name === 'AbortError') {
    return { isError: true, content: [{ type: 'text', text: new CancelledError().message }] };
  }
  log.error(`${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return {
    isError: true,
    content: [
      { type: 'text', text: `${tool} failed because of an internal error; the server log has the details.` },
    ],
  };
}

/** One round of a call, as core's flow runs it: the questions to settle first, then the work. */
export async function runRound(def: AnyTool, args: unknown, call: Call<unknown>): Promise<ToolOutput> {
  await def.beforeTask?.(args, call);
  const out = await def.run(args, call);
  call.progress.flush();
  return out;
}

const strict = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The tool's input schema with unknown arguments refused, not ignored: a misspelt `confirm` must not
 * pass silently. Built once per definition, since a 2026 HTTP request builds a fresh instance.
 * A schema that is not a zod object (JSON Schema through `fromJsonSchema`) is used as it is: it
 * says itself whether it takes unknown arguments (`additionalProperties`).
 */
export function strictInput(input: ToolInput): StandardSchemaWithJSON<unknown, Record<string, unknown>> {
  if (input instanceof z.ZodType && !(input instanceof z.ZodObject)) {
    // A zod union, transform or pipe cannot be made strict, so a misspelt argument would pass.
    throw new TypeError(
      'A tool input written in zod must be z.object(...); use fromJsonSchema for anything else.',
    );
  }
  if (!(input instanceof z.ZodObject)) return input;
  let schema = strict.get(input);
  if (!schema) {
    schema = withCachedJsonSchema(input.strict());
    strict.set(input, schema);
  }
  return schema;
}

/** The wire result of a tool's output: text held to the output budget, structured data beside it. */
export function toCallToolResult(limit: number, out: ToolOutput, hasOutputSchema: boolean): CallToolResult {
  const cut = truncateText(out.text, limit, {
    continuation: 'Ask for less: a smaller range, a page size or a narrower pattern.',
  });
  const result: CallToolResult = { content: [{ type: 'text', text: cut.text }, ...(out.content ?? [])] };
  if (hasOutputSchema && out.structured !== undefined && !out.isError) {
    result.structuredContent = out.structured as Record<string, unknown>;
  }
  if (out.isError) result.isError = true;
  return result;
}
