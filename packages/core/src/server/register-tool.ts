/** @internal Puts a tool definition on one instance. */
import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { runCall } from './call.js';
import { withCachedJsonSchema } from './json-schema-cache.js';
import { errorResult, runRound, strictInput, toCallToolResult } from './tool-run.js';
import type { AnyTool, App, Instance, ToolOutput } from './types.js';

/**
 * Whether an app in read-only mode `readOnly` offers `def`: a read-only tool always; any other
 * only when the app may change things, or when it is read-only for its data alone and the tool
 * writes only outside that data. A hidden tool is not registered at all, so it cannot be called.
 */
export function offersTool(readOnly: App['readOnly'], def: AnyTool): boolean {
  if (def.annotations.readOnlyHint || readOnly === false) return true;
  return readOnly === 'data' && def.writesOutsideData === true;
}

/**
 * Registers a tool on an instance: runs it inside a multi-round flow (so it can ask for roots,
 * sampling or confirmation in either era), maps errors to one clear sentence, and bounds the
 * text it returns. A tool the app's read-only mode hides is not registered at all.
 */
export function registerTool(instance: Instance, def: AnyTool): void {
  const { mcp, app } = instance;
  if (!offersTool(app.readOnly, def)) return;
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
