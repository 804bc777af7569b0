/** @internal Builds one SDK server instance of an app and puts the definition's lists on it. */
import { type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { installListPagination } from '../pagination/list-pagination.js';
import { installTaskDispatch } from '../tasks/dispatch.js';
import { InstanceRoots } from './instance-roots.js';
import { installLegacySubscriptions, registerTarget } from './notify.js';
import { registerPrompt } from './register-prompt.js';
import { registerResource } from './register-resource.js';
import { registerTool } from './register-tool.js';
import type { App, InFlightLike, Instance } from './types.js';

export interface Capabilities {
  subscribe: boolean;
  completions: boolean;
  logging: boolean;
}

export function createInstance(
  // biome-ignore lint/suspicious/noExplicitAny: an instance serves an app of any context
  app: App<any>,
  caps: Capabilities,
  kind: 'connection' | 'request',
  rc: McpRequestContext,
  calls: InFlightLike,
): McpServer {
  const def = app.definition;
  const tools = def.tools ?? [];
  const resources = def.resources ?? [];
  const prompts = def.prompts ?? [];
  const instructions = typeof def.instructions === 'function' ? def.instructions(app) : def.instructions;
  const mcp = new McpServer(
    {
      name: def.name,
      version: def.version,
      ...(def.title ? { title: def.title } : {}),
      ...(def.description ? { description: def.description } : {}),
    },
    {
      capabilities: {
        ...(caps.logging ? { logging: {} } : {}),
        ...(caps.completions ? { completions: {} } : {}),
      },
      ...(instructions ? { instructions } : {}),
      requestState: { verify: app.stateCodec.verify },
      // The 2025 shim's limits: a sampling loop plus roots and a confirmation fit in 12 rounds.
      inputRequired: { maxRounds: 12, roundTimeoutMs: 300_000 },
    },
  );
  // Pagination wraps the list handlers as McpServer installs them, so it goes first; then the
  // list capabilities are declared, before any registration installs a handler.
  installListPagination(mcp, { codec: app.cursors, pageSize: app.pageSize });
  // Tasks are a 2026-era extension; its tools/call front must exist before the first tool does.
  const tasks = rc.era === 'modern' ? installTaskDispatch(mcp, app.tasks) : undefined;
  mcp.server.registerCapabilities({
    ...(tools.length > 0 ? { tools: { listChanged: true } } : {}),
    ...(prompts.length > 0 ? { prompts: { listChanged: true } } : {}),
    ...(resources.length > 0 ? { resources: { subscribe: caps.subscribe, listChanged: true } } : {}),
  });

  const owner = {};
  const roots = app.rootsCeiling
    ? new InstanceRoots(app.rootsCeiling, rc.era, mcp, app.log, () => app.hub.listChanged('resources'))
    : undefined;
  const instance: Instance = { app, era: rc.era, mcp, authInfo: rc.authInfo, roots, tasks, calls };
  if (resources.length > 0 && caps.subscribe && rc.era === 'legacy')
    installLegacySubscriptions(mcp, app.hub, owner);
  for (const tool of tools) registerTool(instance, tool);
  for (const resource of resources) registerResource(instance, resource);
  for (const prompt of prompts) registerPrompt(instance, prompt);
  if (kind === 'connection') registerTarget(mcp, app.hub, rc.era === 'legacy' ? owner : undefined);
  return mcp;
}
