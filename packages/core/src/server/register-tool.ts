/** @internal Puts a tool definition on one instance. */
import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { runCall } from './call.js';
import { withCachedJsonSchema } from './json-schema-cache.js';
import { errorResult, runRound, strictInput, toCallToolResult } from './tool-run.js';
import type { AnyTool, Instance, ToolOutput } from './types.js';

/**
 * Registers a tool on an instance: runs it inside a multi-round flow (so it can ask for roots,
 * sampling or confirmation in either era), maps errors to one clear sentence, and bounds the
 * text it returns. In read-only mode a tool that is not read-only is not registered at all.
 */
export function registerTool(instance: Instance, def: AnyTool): void {
  const { mcp, app } = instance;
  if (app.readOnly && !def.annotations.readOnlyHint) return;
  const handler = async (
    args: unknown,
    ctx: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> => {
    try {
      const result = await runCall(instance, ctx, `tools/call:${def.name}`, args, def.name, (call) =>
        runRound(def, args, call),
      );
      if (isInputRequiredResult(result)) return result;
      return toCallToolResult(app.outputLimitBytes, result as ToolOutput, def.output !== undefined);
    } catch (error) {
      return errorResult(app.log, def.name, error);
    }
  };
  // The SDK's overloads are generic over the schema; registering through a widened signature
  // keeps this wrapper free of casts at every call site.
  const register = mcp.registerTool.bind(mcp) as (
    name: string,
    config: Record<string, unknown>,
    cb: (args: unknown, ctx: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
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
  if (def.task) instance.tasks?.offer(instance, def);
}
