/**
 * The cancellation step of every-feature scenarios. It asserts what shows a cancel worked, never
 * how long it took: the call ends without a result, the server takes new work, and for CPU-bound
 * work the threads doing it stop while an identical call that was not cancelled still runs. Waits
 * have no deadlines of their own: work that never stops runs into the test's timeout, so a loaded
 * machine, which only slows things down, cannot fail the step.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadCpuTimes } from './processes.js';
import type { ScenarioContext } from './scenario.js';
import { activeThreads, allAlive, busyThreads, untilThreadsStop } from './work-threads.js';

export interface CancelOptions {
  /** How long the call runs at least before it is cancelled. */
  after: number;
  /**
   * For CPU-bound work that the server runs off its main thread (workers, new or pooled): cancel
   * only once those threads are busy, then require them to stop while an identical call started
   * just before, and not cancelled, still runs. The work is then shown to stop because of the
   * cancel, not merely to be abandoned by the client or ended by the call's own time limit.
   * Needs /proc; elsewhere only the rest of the step is checked.
   */
  serverGoesIdle?: boolean;
}

/** A tool call under way, with the means to cancel it and to see whether it has ended. */
interface RunningCall {
  cancel(): void;
  readonly settled: Promise<{ result: unknown } | { error: unknown }>;
  /** Fails the step if the call has ended before it was cancelled. */
  stillRunning(): void;
  readonly ended: boolean;
}

function startCall(ctx: ScenarioContext, name: string, args: Record<string, unknown>): RunningCall {
  const controller = new AbortController();
  let ended = false;
  const settled = ctx.session.callTool(name, args, { signal: controller.signal }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  void settled.then(() => {
    ended = true;
  });
  return {
    cancel: () => controller.abort(),
    settled,
    stillRunning: () =>
      assert.ok(!ended, `${name} finished before it was cancelled, so stopping it proves nothing`),
    get ended() {
      return ended;
    },
  };
}

async function expectCancelledResult(call: RunningCall, name: string): Promise<void> {
  const settled = await call.settled;
  assert.ok('error' in settled, `${name} answered with a result although it was cancelled`);
}

/**
 * The twin check: `twin` runs the same work, started first and left running until the check, so
 * its threads outlive the cancelled call's work only if the cancel, not the work's own end or
 * time limit, stopped that. Then the twin is cancelled too, and its threads must stop as well.
 */
async function expectWorkStops(
  ctx: ScenarioContext,
  pid: number,
  name: string,
  args: Record<string, unknown>,
  after: number,
): Promise<void> {
  const twin = startCall(ctx, name, args);
  try {
    const twinThreads = await busyThreads(pid, twin.stillRunning);
    // Every thread the twin keeps active is set aside too (it may work on several, not all of
    // them busy in every window), so none of its threads is taken for the cancelled call's.
    const setAside = new Set([...twinThreads, ...(await activeThreads(pid, twin.stillRunning))]);
    const call = startCall(ctx, name, args);
    await sleep(after);
    const threads = await busyThreads(pid, call.stillRunning, setAside);
    call.cancel();
    await expectCancelledResult(call, name);
    await untilThreadsStop(pid, threads);
    assert.ok(
      !twin.ended && (await allAlive(pid, twinThreads)),
      `${name}'s work ran on after the cancel until it ended by itself`,
    );
    twin.cancel();
    await expectCancelledResult(twin, name);
    await untilThreadsStop(pid, twinThreads);
  } finally {
    twin.cancel();
  }
}

/**
 * Starts a long call, cancels it (2025 and 2026 stdio: `notifications/cancelled`; 2026 HTTP: the
 * request is aborted), and asserts the call ends without a result and the server takes new work.
 */
export async function expectCancelled(
  ctx: ScenarioContext,
  name: string,
  args: Record<string, unknown>,
  options: CancelOptions,
): Promise<void> {
  const pid = options.serverGoesIdle ? await ctx.serverPid() : undefined;
  if (pid !== undefined && (await threadCpuTimes(pid)) !== undefined) {
    await expectWorkStops(ctx, pid, name, args, options.after);
  } else {
    const call = startCall(ctx, name, args);
    await sleep(options.after);
    call.cancel();
    await expectCancelledResult(call, name);
  }
  // Answered at all, however late: the cancelled work does not hold the server.
  await ctx.session.client.listTools();
}
