import {
  type McpServer,
  MissingRequiredClientCapabilityError,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The extension's identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * True when this request's client declared the tasks extension. In the 2026 era every request
 * carries the client's capabilities, so a client that declared it once (session level) and one
 * that adds it to a single call's `_meta` (per-request opt-in) look the same here.
 */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[CAPS_KEY] as { extensions?: Record<string, unknown> } | undefined;
  const extensions = caps?.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** The -32021 error that names the extension the client must declare. */
export function tasksCapabilityMissing(message: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    message,
  );
}

/** Advertises the extension in `server/discover` (never the 2025 `capabilities.tasks` slot). */
export function advertiseTasks(mcp: McpServer): void {
  mcp.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
}
