/**
 * Cancelling a git tool while its git process is seen running: the call fails and no git process
 * is left for the repository. The every-feature scenario and the in-process read tests both use it.
 * No clock is asserted (a loaded machine varies): the waits have no deadline of their own and
 * leave a hang to the test's timeout. That git went because it was killed, not because it finished,
 * is shown where the runner can be observed: the in-process test checks that git's run ended in
 * CancelledError.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { processesMentioning, type TestSession } from '@mcpkit/core/testing';

/** Polls until `check` holds; no deadline of its own. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await sleep(25);
}

/**
 * Calls `name`, waits until a process mentions `gitDir` (each git the server starts carries its
 * repository's git directory in its environment), cancels the call, and asserts the call fails
 * and the process goes away. Give a call whose git process runs for several seconds.
 */
export async function expectGitKilledOnCancel(
  session: TestSession,
  gitDir: string,
  name: string,
  args: Record<string, unknown>,
): Promise<void> {
  const gits = () => processesMentioning(gitDir);
  assert.deepEqual(await gits(), [], 'a git process for the repository was already running');
  const controller = new AbortController();
  const outcome = session.callTool(name, args, { signal: controller.signal }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  await until(async () => (await gits()).length > 0);
  controller.abort();
  const settled = await outcome;
  assert.ok('error' in settled, `${name} finished before it was cancelled`);
  await until(async () => (await gits()).length === 0);
}
