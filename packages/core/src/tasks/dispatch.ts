import type {
  HandlerResultTypeMap,
  McpServer,
  RequestTypeMap,
  ServerContext,
} from '@modelcontextprotocol/server';
import { strictInput } from '../server/tool-run.js';
import type { AnyTool, Instance, TaskOffersLike } from '../server/types.js';
import { advertiseTasks, declaresTasks, tasksCapabilityMissing } from './extension.js';
import { serveTaskMethods } from './methods.js';
import { callAsTask } from './run.js';
import type { TaskStore } from './store.js';

type CallHandler = (
  request: RequestTypeMap['tools/call'],
  ctx: ServerContext,
) => HandlerResultTypeMap['tools/call'] | Promise<HandlerResultTypeMap['tools/call']>;

/**
 * The task-capable tools of one 2026-era instance, and the `tools/call` front that decides, per
 * call, between a task and a plain synchronous run. The 2025 era has no such front: the tasks of
 * that revision are a different, replaced design, so there every tool runs synchronously.
 */
export class TaskOffers implements TaskOffersLike {
  private readonly tools = new Map<string, { instance: Instance; def: AnyTool }>();

  constructor(
    private readonly mcp: McpServer,
    private readonly store: TaskStore,
  ) {}

  /** Makes `def` available as a task; the first such tool brings the extension's methods. */
  offer(instance: Instance, def: AnyTool): void {
    if (this.tools.size === 0) {
      serveTaskMethods(this.mcp, this.store);
      advertiseTasks(this.mcp);
    }
    this.tools.set(def.name, { instance, def });
  }

  /** Routes one `tools/call`: to a task when both the tool and the client take part in tasks. */
  async dispatch(
    request: RequestTypeMap['tools/call'],
    ctx: ServerContext,
    synchronous: CallHandler,
  ): Promise<HandlerResultTypeMap['tools/call']> {
    const offered = this.tools.get(request.params.name);
    if (!offered) return synchronous(request, ctx);
    const { instance, def } = offered;
    if (!declaresTasks(ctx)) {
      if (def.task === 'required') {
        throw tasksCapabilityMissing(
          `${def.name} runs only as a task; declare the tasks extension in the client capabilities.`,
        );
      }
      return synchronous(request, ctx);
    }
    // Arguments that do not fit go the usual way, so they are refused exactly as for any tool.
    const args = await strictInput(def.input)['~standard'].validate(request.params.arguments ?? {});
    if (args.issues) return synchronous(request, ctx);
    // Answered here, not through McpServer's tool handler, whose output-schema check a task
    // handle (not the tool's output) would fail.
    return (await callAsTask(
      this.store,
      instance,
      def,
      args.value,
      ctx,
    )) as HandlerResultTypeMap['tools/call'];
  }
}

/**
 * Puts the task front before `tools/call` on a 2026-era instance. McpServer installs its
 * `tools/call` handler on the first `registerTool` through `mcp.server.setRequestHandler`; this
 * wraps that method (as pagination does for the list methods), so call it before any tool is
 * registered.
 */
export function installTaskDispatch(mcp: McpServer, store: TaskStore): TaskOffers {
  const offers = new TaskOffers(mcp, store);
  const server = mcp.server;
  const original = server.setRequestHandler;
  server.setRequestHandler = (method: string, ...rest: unknown[]): void => {
    const [handler] = rest;
    if (method === 'tools/call' && rest.length === 1 && typeof handler === 'function') {
      const synchronous = handler as CallHandler;
      const front: CallHandler = (request, ctx) => offers.dispatch(request, ctx, synchronous);
      Reflect.apply(original, server, [method, front]);
      return;
    }
    Reflect.apply(original, server, [method, ...rest]);
  };
  return offers;
}
