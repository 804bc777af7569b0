import {
  type AuthInfo,
  createRequestStateCodec,
  type McpRequestContext,
  McpServer,
  type McpServerFactory,
  type RequestStateCodec,
} from '@modelcontextprotocol/server';
import { DEFAULT_OUTPUT_LIMIT_BYTES } from '../limits/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import type { Era } from '../mrtr/capabilities.js';
import type { FlowState } from '../mrtr/flow.js';
import { type CursorCodec, createCursorCodec, installListPagination } from '../pagination/index.js';
import type { RootSet } from '../roots/root-set.js';
import { SubscriptionHub } from '../subscriptions/index.js';
import { installTaskDispatch, type TaskOffers } from '../tasks/dispatch.js';
import type { TaskStoreOptions } from '../tasks/options.js';
import { TaskStore } from '../tasks/store.js';
import { InstanceRoots } from './instance-roots.js';
import { type AppKeys, resolveKeys } from './keys.js';
import { installLegacySubscriptions, registerTarget } from './notify.js';

/** What a server is: its name, and what it registers on every instance. */
export interface AppDefinition {
  name: string;
  version: string;
  title?: string;
  description?: string;
  /** Shown to the model by hosts that surface server instructions. */
  instructions?: string | ((app: App) => string);
  /** Which parts of the protocol the server offers. Default: all of them. */
  capabilities?: {
    tools?: boolean;
    prompts?: boolean;
    resources?: boolean;
    /** `resources/subscribe` and `subscriptions/listen` for resources. */
    subscribe?: boolean;
    completions?: boolean;
    logging?: boolean;
  };
  /** Registers tools, resources and prompts on a fresh instance. Called per connection or per request. */
  setup(mcp: McpServer, scope: Scope): void;
}

export interface AppOptions {
  /** The allowed directories (the ceiling client roots may narrow), for servers that work on files. */
  roots?: RootSet;
  /** Hide every tool that is not read-only. */
  readOnly?: boolean;
  /** Items per page of the list methods (`tools/list`, `resources/list`, …). Default 100. */
  pageSize?: number;
  /**
   * Items per page of a paged tool result (search hits, directory entries). Default 10 000: such
   * pages are also cut by the output budget (1 MiB by default), so the item cap rarely binds, and
   * every extra page is a round trip for the model.
   */
  resultPageSize?: number;
  /** Bytes of text one tool result or resource read may carry. */
  outputLimitBytes?: number;
  /** Keys for signed state and cursors; default from `MCPKIT_STATE_KEY` or random. */
  keys?: AppKeys;
  log?: Logger;
  /** Debounce of change notifications. Default 100 ms. */
  notifyDebounceMs?: number;
  /** Watched resources at most. Default 256. */
  maxWatches?: number;
  /**
   * Lifetime, polling hint, question deadline and caps of tasks (2026 era, tools with `task` set),
   * including `maxResultBytes`, the budget for finished results across the app.
   */
  tasks?: TaskStoreOptions;
}

/** What every instance shares: options, keys, codecs and the notification hub. */
export interface App {
  readonly definition: AppDefinition;
  readonly name: string;
  readonly version: string;
  readonly readOnly: boolean;
  readonly pageSize: number;
  readonly resultPageSize: number;
  readonly outputLimitBytes: number;
  readonly rootsCeiling: RootSet | undefined;
  readonly log: Logger;
  readonly hub: SubscriptionHub;
  /**
   * The tasks of this process. A task lives where it was created, not in a per-request instance;
   * with several processes behind a balancer it is only visible on the process that made it.
   */
  readonly tasks: TaskStore;
  readonly stateCodec: RequestStateCodec<FlowState>;
  readonly cursors: CursorCodec;
  /** True when no `MCPKIT_STATE_KEY` was given: state and cursors only work against this process. */
  readonly keysEphemeral: boolean;
  /**
   * The SDK factory. `connection` instances live as long as a stdio connection or a 2025 HTTP
   * session and receive change notifications; `request` instances serve one 2026 HTTP request
   * and are never registered anywhere (the HTTP handler's notifier covers them).
   */
  factory(kind: 'connection' | 'request'): McpServerFactory;
  close(): Promise<void>;
}

/** One instance's view: its era, its roots, and the app. */
export interface Scope {
  readonly app: App;
  readonly era: Era;
  readonly mcp: McpServer;
  readonly authInfo: AuthInfo | undefined;
  /** Present when the app was given directories. */
  readonly roots: InstanceRoots | undefined;
  /** Where tools with `task` set are offered as tasks; 2026-era instances only. */
  readonly tasks?: TaskOffers;
}

/**
 * Builds a server app: one definition, served in both protocol eras over any transport.
 *
 * @example
 * ```ts
 * const app = createApp({ name: 'notes', version: '1.0.0', setup(mcp, scope) { registerTool(scope, echo); } });
 * serveStdio(app.factory('connection'));
 * ```
 */
export function createApp(definition: AppDefinition, options: AppOptions = {}): App {
  const log = options.log ?? silentLogger;
  const keys = options.keys ?? resolveKeys(process.env, log);
  const caps = {
    tools: true,
    prompts: true,
    resources: true,
    subscribe: true,
    completions: true,
    logging: true,
  };
  Object.assign(caps, definition.capabilities);
  const hub = new SubscriptionHub({
    log,
    ...(options.notifyDebounceMs !== undefined ? { debounceMs: options.notifyDebounceMs } : {}),
    ...(options.maxWatches !== undefined ? { maxWatches: options.maxWatches } : {}),
  });
  const stateCodec = createRequestStateCodec<FlowState>({
    key: keys.requestState,
    ttlSeconds: 900,
    // A state is only good for the method it was minted for and the principal that started it.
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
  });
  const cursors = createCursorCodec({ key: keys.cursors });
  const tasks = new TaskStore(options.tasks);

  const app: App = {
    definition,
    name: definition.name,
    version: definition.version,
    readOnly: options.readOnly ?? false,
    pageSize: options.pageSize ?? 100,
    resultPageSize: options.resultPageSize ?? options.pageSize ?? 10_000,
    outputLimitBytes: options.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
    rootsCeiling: options.roots,
    log,
    hub,
    tasks,
    stateCodec,
    cursors,
    keysEphemeral: keys.ephemeral,
    factory: (kind) => (rc: McpRequestContext) => createInstance(app, caps, kind, rc),
    close: () => {
      tasks.close();
      return hub.close();
    },
  };
  return app;
}

function createInstance(
  app: App,
  caps: Required<NonNullable<AppDefinition['capabilities']>>,
  kind: 'connection' | 'request',
  rc: McpRequestContext,
): McpServer {
  const def = app.definition;
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
    ...(caps.tools ? { tools: { listChanged: true } } : {}),
    ...(caps.prompts ? { prompts: { listChanged: true } } : {}),
    ...(caps.resources ? { resources: { subscribe: caps.subscribe, listChanged: true } } : {}),
  });

  const owner = {};
  const roots = app.rootsCeiling
    ? new InstanceRoots(app.rootsCeiling, rc.era, mcp, app.log, () => app.hub.listChanged('resources'))
    : undefined;
  const scope: Scope = { app, era: rc.era, mcp, authInfo: rc.authInfo, roots, tasks };
  if (caps.resources && caps.subscribe && rc.era === 'legacy')
    installLegacySubscriptions(mcp, app.hub, owner);
  def.setup(mcp, scope);
  if (kind === 'connection') registerTarget(mcp, app.hub, rc.era === 'legacy' ? owner : undefined);
  return mcp;
}
