/**
 * @internal Builds the one call object every handler gets, and the lookup listings and
 * completions get.
 */
import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { mcpLog } from '../logging/mcp-log.js';
import { type Flow, runFlow } from '../mrtr/flow.js';
import { progress } from '../progress/reporter.js';
import type { RootSet } from '../roots/root-set.js';
import type { App, AppView, Call, Instance, Lookup } from './types.js';

function noDirectories(what: string): never {
  // A server bug, not a user's mistake: a handler asked for roots the app was never given.
  throw new Error(`${what} needs directories, but the app was created without roots`);
}

/** The call object for one round of a handler (`what` names it in logs: a tool or prompt name). */
export function callOf<C>(instance: Instance, flow: Flow, ctx: ServerContext, what: string): Call<C> {
  const app = instance.app as App<C>;
  return {
    context: app.context,
    app,
    era: instance.era,
    flow,
    ctx,
    // The client's cancel, or the app closing: either stops the work.
    signal: AbortSignal.any([ctx.mcpReq.signal, instance.calls.signal]),
    progress: progress(ctx, { base: flow.round }),
    log: mcpLog(ctx, app.log, what),
    roots: () => (instance.roots ? instance.roots.forCall(flow) : noDirectories(what)),
  };
}

/** What a listing or completion on this instance sees: the roots as last heard, never asking. */
export function lookupOf<C>(instance: Instance): Lookup<C> {
  const app = instance.app as App<C>;
  return {
    context: app.context,
    app,
    roots: (): Promise<RootSet> =>
      instance.roots ? instance.roots.current() : Promise.resolve(noDirectories('a listing')),
  };
}

/** What the app itself sees, outside any instance: the directories it was given. */
export function appLookup<C>(app: AppView<C>): Lookup<C> {
  return {
    context: app.context,
    app,
    roots: async () => app.rootsCeiling ?? noDirectories('a watch'),
  };
}

/**
 * Runs one handler for a request: inside a multi-round flow (so it may ask the client for roots,
 * sampling or confirmation in either era), with its call object, counted among the app's calls in
 * flight. `op` names the operation the flow state is bound to; `what` names the handler in logs.
 */
export function runCall<T>(
  instance: Instance,
  ctx: ServerContext,
  op: string,
  args: unknown,
  what: string,
  body: (call: Call<unknown>) => Promise<T> | T,
): Promise<T | InputRequiredResult> {
  const options = { era: instance.era, mcp: instance.mcp, codec: instance.app.stateCodec, op, args };
  return instance.calls.track(runFlow(ctx, options, (flow) => body(callOf(instance, flow, ctx, what))));
}
