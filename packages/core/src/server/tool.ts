import {
  type CallToolResult,
  type ContentBlock,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { isUserError } from '../errors/index.js';
import { truncateText } from '../limits/index.js';
import { type McpLog, mcpLog } from '../logging/mcp-log.js';
import { type Flow, runFlow } from '../mrtr/flow.js';
import { CancelledError } from '../progress/cancel.js';
import { type ProgressReporter, progress } from '../progress/reporter.js';
import type { RootSet } from '../roots/root-set.js';
import type { TaskSupport } from '../tasks/shapes.js';
import type { Scope } from './app.js';
import { withCachedJsonSchema } from './json-schema-cache.js';

/** What a tool handler gets besides its arguments. */
export interface ToolCall {
  readonly flow: Flow;
  readonly ctx: ServerContext;
  readonly signal: AbortSignal;
  readonly progress: ProgressReporter;
  readonly log: McpLog;
  readonly scope: Scope;
  /** The directories this call may use (asks the client for roots in the 2026 era). */
  roots(): Promise<RootSet>;
}

/** A tool's answer: text for the model, and the same data structured when the tool declares an output schema. */
export interface ToolOutput<O = unknown> {
  text: string;
  structured?: O;
  /** More content after the text: images, audio, resource links. */
  content?: ContentBlock[];
  isError?: boolean;
}

export interface ToolDefinition<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject | undefined = undefined,
> {
  name: string;
  title: string;
  description: string;
  input: I;
  output?: O;
  annotations: Omit<ToolAnnotations, 'title'> & { readOnlyHint: boolean };
  /**
   * Lets a 2026-era client that declares the tasks extension get a task handle at once and poll
   * for the result (see `@mcpkit/core/tasks`). The 2025 era has no tasks: the tool runs as usual.
   */
  task?: TaskSupport;
  /**
   * Questions settled in the request itself (`call.flow.ask`, multi-round) before a task is made;
   * `run` reads their answers under the same keys. Without a task it just runs before `run`.
   */
  beforeTask?(args: z.infer<I>, call: ToolCall): void | Promise<void>;
  run(
    args: z.infer<I>,
    call: ToolCall,
  ):
    | Promise<ToolOutput<O extends z.ZodObject ? z.infer<O> : never>>
    | ToolOutput<O extends z.ZodObject ? z.infer<O> : never>;
}

/**
 * Defines a tool with its types inferred from its schemas.
 *
 * @example
 * ```ts
 * export const echo = defineTool({
 *   name: 'echo', title: 'Echo', description: 'Returns its input.',
 *   input: z.object({ text: z.string() }), annotations: { readOnlyHint: true },
 *   run: ({ text }) => ({ text }),
 * });
 * ```
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject | undefined = undefined>(
  def: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return def;
}

/** The result for a failure: one sentence for a `UserError`, a fixed one for anything else. */
export function errorResult(scope: Scope, tool: string, error: unknown): CallToolResult {
  if (isUserError(error)) return { isError: true, content: [{ type: 'text', text: error.message }] };
  // A bad argument found while working (a forged cursor) is the caller's mistake, not ours.
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) {
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
  // Cancellation from a library's own abort (fs, fetch, timers) is not a failure worth logging.
  if (error instanceof Error && error.name === 'AbortError') {
    return { isError: true, content: [{ type: 'text', text: new CancelledError().message }] };
  }
  scope.app.log.error(
    `${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return {
    isError: true,
    content: [
      { type: 'text', text: `${tool} failed because of an internal error; the server log has the details.` },
    ],
  };
}

/**
 * Registers a tool on an instance: runs it inside a multi-round flow (so it can ask for roots,
 * sampling or confirmation in either era), maps errors to one clear sentence, and bounds the
 * text it returns. In read-only mode a tool that is not read-only is not registered at all.
 */
export function registerTool<I extends z.ZodObject, O extends z.ZodObject | undefined>(
  scope: Scope,
  def: ToolDefinition<I, O>,
): void {
  if (scope.app.readOnly && !def.annotations.readOnlyHint) return;
  const { mcp, app } = scope;
  const handler = async (
    args: z.infer<I>,
    ctx: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> => {
    try {
      const result = await runFlow(
        ctx,
        { era: scope.era, mcp, codec: app.stateCodec, op: `tools/call:${def.name}`, args },
        (flow) => runRound(scope, def, args, ctx, flow),
      );
      if (isInputRequiredResult(result)) return result;
      return toCallToolResult(app.outputLimitBytes, result as ToolOutput, def.output !== undefined);
    } catch (error) {
      return errorResult(scope, def.name, error);
    }
  };
  // The SDK's overloads are generic over the schema; registering through a widened signature
  // keeps this wrapper free of casts at every call site.
  const register = mcp.registerTool.bind(mcp) as (
    name: string,
    config: Record<string, unknown>,
    cb: (args: z.infer<I>, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
  ) => unknown;
  register(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: strictInput(def.input),
      ...(def.output ? { outputSchema: withCachedJsonSchema(def.output) } : {}),
      annotations: { title: def.title, ...def.annotations },
    },
    handler,
  );
  // In the 2026 era a client that declares the tasks extension may get it as a task instead.
  if (def.task) scope.tasks?.offer(scope, def);
}

/** What one round of a call hands the tool. */
export function toolCall<I extends z.ZodObject, O extends z.ZodObject | undefined>(
  scope: Scope,
  def: ToolDefinition<I, O>,
  flow: Flow,
  ctx: ServerContext,
): ToolCall {
  return {
    flow,
    ctx,
    signal: ctx.mcpReq.signal,
    progress: progress(ctx, { base: flow.round }),
    log: mcpLog(ctx, scope.app.log, def.name),
    scope,
    roots: async () => {
      if (!scope.roots) throw new Error(`${def.name} needs roots but the app has no directories`);
      return scope.roots.forCall(flow);
    },
  };
}

/** One round of a call, as core's flow runs it: the questions to settle first, then the work. */
export async function runRound<I extends z.ZodObject, O extends z.ZodObject | undefined>(
  scope: Scope,
  def: ToolDefinition<I, O>,
  args: z.infer<I>,
  ctx: ServerContext,
  flow: Flow,
): Promise<ToolOutput> {
  const call = toolCall(scope, def, flow, ctx);
  await def.beforeTask?.(args, call);
  const out = await def.run(args, call);
  call.progress.flush();
  return out;
}

const strict = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The tool's input schema with unknown arguments refused, not ignored: a misspelt `confirm` must not
 * pass silently. Built once per definition, since a 2026 HTTP request builds a fresh instance.
 */
export function strictInput(input: z.ZodObject): z.ZodObject {
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
