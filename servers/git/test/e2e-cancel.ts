/**
 * The proof that cancelling a git tool stops git itself, not only the answer: the call is cancelled
 * while its git process is seen running, and that process must be gone soon after, long before it
 * could have finished its work on its own. The every-feature scenario and the in-process read
 * tests both use it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { processesMentioning, type TestSession } from '@mcpkit/core/testing';

/** Polls until `check` holds, for up to `ms`; returns whether it did. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
}

/**
 * Calls `name`, waits until a process mentions `gitDir` (each git the server starts carries its
 * repository's git directory in its environment), cancels the call, and asserts the call fails
 * and the process goes away within `stopWithinMs`: a fraction of what the work needs (give a
 * call whose git process runs for several seconds), with room for a loaded machine.
 */
export async function expectGitKilledOnCancel(
  session: TestSession,
  gitDir: string,
  name: string,
  args: Record<string, unknown>,
  stopWithinMs = 2000,
): Promise<void> {
  const gits = () => processesMentioning(gitDir);
  assert.deepEqual(await gits(), [], 'a git process for the repository was already running');
  const controller = new AbortController();
  const outcome = session.callTool(name, args, { signal: controller.signal }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  const started = await until(async () => (await gits()).length > 0, 10_000);
  assert.ok(started, `${name} never started git`);
  controller.abort();
  const settled = await outcome;
  assert.ok('error' in settled, `${name} finished before it was cancelled`);
  const stopped = await until(async () => (await gits()).length === 0, stopWithinMs);
  assert.ok(stopped, `git was still running ${stopWithinMs} ms after ${name} was cancelled`);
}
