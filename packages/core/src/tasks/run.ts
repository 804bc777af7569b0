import {
  type CallToolResult,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { clientCapabilities } from '../mrtr/capabilities.js';
import { type FlowState, runFlow } from '../mrtr/flow.js';
import { callOf, withCallSignal } from '../server/call.js';
import { errorResult, runRound, toCallToolResult } from '../server/tool-run.js';
import type { AnyTool, Instance, ToolOutput } from '../server/types.js';
import { taskContext } from './context.js';
import { taskFailure } from './failure.js';
import { principalOf } from './principal.js';
import { missingFor } from './questions.js';
import { type CreateTaskResult, createTaskResult } from './shapes.js';
import type { TaskStore } from './store.js';
import type { TaskHandle } from './types.js';

/** What `beforeTask` returns through the flow when its questions are all answered. */
const READY = Symbol('ready for the task');

/** The operation name of the synchronous path, so a state minted by either is good for both. */
function opOf(def: AnyTool): string {
  return `tools/call:${def.name}`;
}

/**
 * Answers a `tools/call` the client may receive as a task. Questions of the tool's `beforeTask`
 * are settled first, in the request itself (multi-round, signed state); then the task is created
 * and its handle returned at once, while the work runs on in the background.
 */
export async function callAsTask(
  store: TaskStore,
  instance: Instance,
  def: AnyTool,
  args: Record<string, unknown>,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
  let task: TaskHandle;
  try {
    const before = def.beforeTask;
    if (before) {
      const ready = await withCallSignal(instance, ctx, (signal) =>
        runFlow(
          ctx,
          { era: instance.era, mcp: instance.mcp, codec: instance.app.stateCodec, op: opOf(def), args },
          async (flow): Promise<typeof READY> => {
            await before(args, callOf(instance, flow, ctx, def.name, signal));
            return READY;
          },
        ),
      );
      if (ready !== READY) return ready;
    }
    task = store.create(principalOf(ctx));
  } catch (error) {
    return errorResult(instance.app.log, def.name, error);
  }
  // The handle goes out first; the work starts on the next turn of the event loop.
  setImmediate(() => {
    instance.calls.track(runTask(task, instance, def, args, ctx)).catch((error: unknown) => {
      instance.app.log.error(`${def.name}: a task ended abnormally: ${String(error)}`);
    });
  });
  return createTaskResult(task.snapshot());
}

/**
 * Runs a task's work to its end. Each leg re-runs the tool from the top through core's flow, like
 * a 2026 retry: the answers so far come from the flow state, and a question still unanswered ends
 * the leg. The task then waits in `input_required` until `tasks/update` has answered all of it.
 */
async function runTask(
  task: TaskHandle,
  instance: Instance,
  def: AnyTool,
  args: Record<string, unknown>,
  origin: ServerContext,
): Promise<void> {
  // The first leg sees the request's own last round, so answers given before the task count.
  let state = origin.mcpReq.requestState<FlowState>();
  let responses = origin.mcpReq.inputResponses;
  const declared = clientCapabilities(origin, instance.mcp);
  // Cancelled before it started: nothing to stop.
  if (task.signal.aborted) return;
  try {
    for (;;) {
      let next: FlowState | undefined;
      // The state stays in the task; the flow's "mint" only hands it over.
      const keep: RequestStateCodec<FlowState> = {
        mint: async (s) => {
          next = s;
          return 'kept-by-the-task';
        },
        verify: () => Promise.reject(new Error('A task keeps its flow state on the server.')),
      };
      const ctx = taskContext(origin, {
        signal: task.signal,
        state: typeof state === 'object' ? state : undefined,
        responses,
        onProgress: (message) => task.report(message),
      });
      const out = await withCallSignal(instance, ctx, (signal) =>
        runFlow(ctx, { era: instance.era, mcp: instance.mcp, codec: keep, op: opOf(def), args }, (flow) =>
          runRound(def, args, callOf(instance, flow, ctx, def.name, signal)),
        ),
      );
      if (!isInputRequiredResult(out)) {
        task.complete(await finish(instance, def, out));
        return;
      }
      const questions = out.inputRequests ?? {};
      const missing = missingFor(questions, declared);
      if (missing) {
        task.fail({
          code: ProtocolErrorCode.MissingRequiredClientCapability,
          message: `${def.name} needs to ask the client something it did not declare it can answer.`,
          data: { requiredCapabilities: missing },
        });
        return;
      }
      responses = await task.needInput(questions);
      state = next;
    }
  } catch (error) {
    // Cancelled or expired: the store has already settled the task.
    if (task.signal.aborted) return;
    const outcome = taskFailure(instance.app.log, def.name, error);
    if ('fail' in outcome) task.fail(outcome.fail);
    else task.complete(outcome.complete);
  }
}

/** The task's result, held to the same output budget and schema as a synchronous call's. */
async function finish(instance: Instance, def: AnyTool, out: ToolOutput): Promise<CallToolResult> {
  if (def.output && !out.isError) {
    const checked = await def.output.safeParseAsync(out.structured);
    if (!checked.success) {
      return errorResult(
        instance.app.log,
        def.name,
        new Error(`structured output does not match its schema`),
      );
    }
  }
  return toCallToolResult(instance.app.outputLimitBytes, out, def.output !== undefined);
}
