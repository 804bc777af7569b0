/**
 * A window on the git processes an in-process server starts: a test file replaces core's
 * `runProcess` with {@link recording} (the real one still runs) and reads {@link runs} to learn
 * each run's arguments, its child's process id, how many pieces its output came in, and how it
 * ended. Since a run settles only after its child has exited, a test can then check that a
 * cancelled git is really gone by its id, without polling.
 *
 * @example
 * ```ts
 * vi.mock('@mcpkit/core/progress', async (importOriginal) => {
 *   const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
 *   const { recording } = await import('./git-runs.js');
 *   return { ...real, runProcess: recording(real.runProcess) };
 * });
 * ```
 */
import assert from 'node:assert/strict';
import type { runProcess } from '@mcpkit/core/progress';

export interface GitRun {
  readonly args: readonly string[];
  /** The child's process id, once it started. */
  pid?: number;
  /** Pieces of stdout handed over while the run went on. */
  chunks: number;
  /** 'finished', or what the run was rejected with; settles once the child has exited. */
  readonly ended: Promise<unknown>;
}

/** Every run since the test file started, oldest first. */
export const runs: GitRun[] = [];

/** `run` wrapped so that every call is recorded in {@link runs}, with the caller's own hooks kept. */
export function recording(run: typeof runProcess): typeof runProcess {
  return (command, args, options = {}) => {
    const entry: { -readonly [K in keyof GitRun]: GitRun[K] } = { args, chunks: 0, ended: Promise.resolve() };
    const result = run(command, args, {
      ...options,
      onSpawn: (pid) => {
        entry.pid = pid;
        options.onSpawn?.(pid);
      },
      onOutput: (chunk) => {
        entry.chunks++;
        options.onOutput?.(chunk);
      },
    });
    entry.ended = result.then(
      () => 'finished',
      (error: unknown) => error,
    );
    runs.push(entry);
    return result;
  };
}

/** The last recorded run of `git <command>`. */
export function lastRun(command: string): GitRun {
  const found = runs.findLast((r) => r.args.includes(command));
  if (!found) throw new Error(`git ${command} was never run through runProcess`);
  return found;
}

/** Asserts that no process has the id `run`'s child had: signal 0 to it fails with ESRCH. */
export async function expectExited(run: GitRun): Promise<void> {
  await run.ended;
  const { pid } = run;
  assert.ok(pid !== undefined && pid > 0, 'the run never started a process');
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `git (pid ${pid}) is still running`);
}
