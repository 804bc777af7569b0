/**
 * Every handler of this server runs under the app's stall guard (`@mcpkit/core/roots`): a call
 * that resolves a path on a network or FUSE mount gets a deadline, renewed by its progress, and one
 * of a few slots, so a stalled mount answers with a sentence instead of holding the call, and can
 * never take every thread the other calls need. The guard learns the paths from `resolvePath`, by
 * way of the per-call `stall` in the context.
 */

import type { StallScope } from '@mcpkit/core/roots';
import type { AnyPrompt, AnyTool } from '@mcpkit/core/server';
import type { FsCall, FsContext } from './context.js';

type FileTemplate = {
  read: (uri: URL, variables: Record<string, string | string[]>, call: FsCall) => unknown;
};

/** The call a handler sees under the guard: its scope in the context, its signal, its progress. */
function underScope(call: FsCall, scope: StallScope): FsCall {
  const progress = call.progress;
  return {
    ...call,
    context: { ...call.context, stall: scope },
    signal: scope.signal,
    progress: {
      enabled: progress.enabled,
      // Progress is what tells a slow walk from a stalled one.
      report: (value, options) => {
        scope.alive();
        progress.report(value, options);
      },
      flush: () => progress.flush(),
    },
  };
}

function guard<A extends unknown[], R>(
  handler: (...args: [...A, FsCall]) => R,
): (...args: [...A, FsCall]) => Promise<Awaited<R>> {
  return (...args) => {
    const call = args.pop() as FsCall;
    const head = args as unknown as A;
    // Nothing slow mounted anywhere (the usual machine): no scope, no extra signal, no race.
    if (!call.context.stallGuard.paths.anySlow)
      return Promise.resolve(handler(...head, call)) as Promise<Awaited<R>>;
    return call.context.stallGuard.run<Awaited<R>>(
      call.signal,
      (scope) => Promise.resolve(handler(...head, underScope(call, scope))) as Promise<Awaited<R>>,
    );
  };
}

/** The tools, each run under the stall guard. */
export function guardTools(tools: readonly AnyTool<FsContext>[]): AnyTool<FsContext>[] {
  return tools.map((tool) => ({ ...tool, run: guard(tool.run) }));
}

/** The prompts (they read files too), each under the stall guard. */
export function guardPrompts(prompts: readonly AnyPrompt<FsContext>[]): AnyPrompt<FsContext>[] {
  return prompts.map((prompt) => ({ ...prompt, get: guard(prompt.get) }));
}

/** A resource template's reads under the stall guard. */
export function guardReads<T extends FileTemplate>(template: T): T {
  return { ...template, read: guard(template.read) };
}
