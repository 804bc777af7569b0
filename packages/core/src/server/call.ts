/**
 * @internal Builds the one call object every handler gets, and the lookup listings and
 * completions get.
 */
import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { mcpLog } from '../logging/mcp-log.js';
import { type Flow, runFlow } from '../mrtr/flow.js';
import { progress } from '../progress/reporter.js';
import type { RootSet } from '../roots/root-set.js';
import { callSignal } from './call-signal.js';
import type { App, AppView, Call, Instance, Lookup } from './types.js';

function noDirectories(what: string): never {
  // A server bug, not a user's mistake: a handler asked for roots the app was never given.
  throw new Error(`${what} needs directories, but the app was created without roots`);
}

/**
 * The call object for one round of a handler (`what` names it in logs: a tool or prompt name).
 * `signal` is the call's own, from {@link withCallSignal}: not `AbortSignal.any`, because on
 * Node 20 the app's long-lived signal would keep a trace of every call while the app lives.
 */
export function callOf<C>(
  instance: Instance,
  flow: Flow,
  ctx: ServerContext,
  what: string,
  signal: AbortSignal,
): Call<C> {
  const app = instance.app as App<C>;
  return {
    context: app.context,
    app,
    era: instance.era,
    flow,
    ctx,
    signal,
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
 * Runs `work` with the signal of one call: aborted when the client cancels or the app closes, with
 * that reason, and let go by both when `work` settles, so a long-lived app keeps nothing of it.
 */
export async function withCallSignal<T>(
  instance: Instance,
  ctx: ServerContext,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = callSignal([ctx.mcpReq.signal, instance.calls.signal]);
  try {
    return await work(own.signal);
  } finally {
    own.release();
  }
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
  return withCallSignal(instance, ctx, (signal) =>
    instance.calls.track(runFlow(ctx, options, (flow) => body(callOf(instance, flow, ctx, what, signal)))),
  );
}
