/**
 * Long work, both eras: a runaway read_query cancelled by the client really stops (the query
 * process that ran it is seen working, then seen gone, and the next call gets a fresh one); a file
 * export reports progress page by page; and in the 2026 era read_query runs as a task, whose
 * cancellation kills the query process too. The cancel tests serve with a statement time limit of
 * ten minutes, far past their own timeout, so only the cancel can stop the statement in time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError } from '@mcpkit/core/progress';
import { cpuTimeMs, type TaskWire, taskWire, textOf, untilTask } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryRunner } from '../src/sql/query-runner.js';
import { alive } from './kit.js';
import { ERAS, structured, type ToolsWorld, toolsWorld } from './tools-kit.js';

const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/** A statement time limit no test here lives to see: a statement that stops was stopped by the cancel. */
const LONG_LIMIT_MS = 600_000;

/**
 * Waits until the query process is seen working (where /proc tells), so the cancel meets a running
 * statement. No deadline: `stillRunning` fails the wait if the call ends first, and a process that
 * never gets busy is left to the test's timeout. Without /proc nothing can be seen, so it only
 * gives the statement a moment to reach the process.
 */
async function untilBusy(pid: number, stillRunning: () => void): Promise<void> {
  if ((await cpuTimeMs(process.pid)) === undefined) return sleep(300);
  for (;;) {
    const before = await cpuTimeMs(pid);
    await sleep(100);
    stillRunning();
    const after = await cpuTimeMs(pid);
    if (before === undefined || after === undefined)
      throw new Error('the query process ended before the cancel');
    if (after - before >= 15) return;
  }
}

/**
 * Waits until the process is gone. No deadline of its own: a process that stays fails the
 * generous test timeout.
 */
async function untilGone(pid: number): Promise<void> {
  while (alive(pid)) await sleep(20);
}

/**
 * Records how each statement the runner is given ends (the real runner still runs it). A cancelled
 * statement ends in CancelledError; one the cancel missed would run on past the test's timeout (or
 * end at the time limit with its sentence), so the outcome, not a clock, shows what stopped it.
 * `stillRunning` fails once any of them has ended.
 */
function recordOutcomes(runner: QueryRunner): { outcomes: Promise<unknown>[]; stillRunning: () => void } {
  const outcomes: Promise<unknown>[] = [];
  let ended = 0;
  const run = runner.run.bind(runner);
  runner.run = (sql, options) => {
    const running = run(sql, options);
    const outcome = running.then(
      () => 'finished',
      (error: unknown) => error,
    );
    void outcome.then(() => ended++);
    outcomes.push(outcome);
    return running;
  };
  return {
    outcomes,
    stillRunning: () => expect(ended, 'the statement ended before it was cancelled').toBe(0),
  };
}

let w: ToolsWorld | undefined;
let wire: TaskWire | undefined;
afterEach(async () => {
  await wire?.close();
  wire = undefined;
  await w?.close();
  w = undefined;
});

describe.each(ERAS)('cancellation and progress, %s era', (era) => {
  // untilGone has no deadline: a query process the cancel missed fails this generous timeout.
  it('kills the query process of a cancelled read_query, and the next call gets a fresh one', {
    timeout: 30_000,
  }, async () => {
    w = await toolsWorld(era, { timeLimitMs: LONG_LIMIT_MS });
    await w.call('read_query', { query: 'SELECT 1' });
    const pid = w.app.context.runner.pid as number;
    expect(alive(pid)).toBe(true);
    const { outcomes, stillRunning } = recordOutcomes(w.app.context.runner);
    const controller = new AbortController();
    const outcome = w.session.callTool('read_query', { query: FOREVER }, { signal: controller.signal }).then(
      () => 'finished',
      () => 'cancelled',
    );
    await untilBusy(pid, stillRunning);
    controller.abort();
    expect(await outcome).toBe('cancelled');
    expect(outcomes).toHaveLength(1);
    expect(await outcomes[0]).toBeInstanceOf(CancelledError);
    await untilGone(pid);
    expect(alive(pid)).toBe(false);
    const next = await w.call('read_query', { query: 'SELECT 2 AS two' });
    expect(structured<{ rows: unknown[][] }>(next).rows).toEqual([[2]]);
    expect(w.app.context.runner.pid).not.toBe(pid);
  });

  it('reports progress while a large export is read page by page', async () => {
    w = await toolsWorld(era, { exports: true });
    const reports: { progress: number; message?: string }[] = [];
    const result = await w.session.callTool(
      'export_query',
      {
        query:
          'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 25000) SELECT x FROM c',
        path: 'numbers.csv',
      },
      { onprogress: (p) => reports.push(p) },
    );
    expect(structured<{ rowCount: number; truncated: boolean }>(result)).toMatchObject({
      rowCount: 25_000,
      truncated: false,
    });
    // The server's own reports (a 2026 client adds its own); the last one may be lost (SDK bug), so
    // only their presence past the first page is asserted.
    const ours = reports.filter((p) => /^\d+ rows (read|exported)$/.test(p.message ?? ''));
    expect(ours.some((p) => p.progress >= 10_000)).toBe(true);
  });
});

describe('read_query as a 2026 task', () => {
  it('answers with a task handle, then the rows on tasks/get', async () => {
    w = await toolsWorld('modern');
    wire = await taskWire(w.app);
    const handle = await wire.request('tools/call', {
      name: 'read_query',
      arguments: { query: 'SELECT name FROM customers WHERE id = ?', params: [2] },
    });
    expect(handle.resultType).toBe('task');
    const done = await untilTask(wire, handle.taskId, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent.rows).toEqual([['Brendan']]);
    expect(textOf(done.result)).toContain('["Brendan"]');
  });

  // untilGone has no deadline: a query process the cancel missed fails this generous timeout.
  it('kills the query process when the task is cancelled', { timeout: 30_000 }, async () => {
    w = await toolsWorld('modern', { timeLimitMs: LONG_LIMIT_MS });
    await w.call('read_query', { query: 'SELECT 1' });
    const pid = w.app.context.runner.pid as number;
    const { outcomes, stillRunning } = recordOutcomes(w.app.context.runner);
    wire = await taskWire(w.app);
    const handle = await wire.request('tools/call', { name: 'read_query', arguments: { query: FOREVER } });
    expect(handle.resultType).toBe('task');
    await untilBusy(pid, stillRunning);
    await wire.request('tasks/cancel', { taskId: handle.taskId });
    const after = await untilTask(wire, handle.taskId, 'cancelled');
    expect(after.status).toBe('cancelled');
    expect(outcomes).toHaveLength(1);
    expect(await outcomes[0]).toBeInstanceOf(CancelledError);
    await untilGone(pid);
    expect(alive(pid)).toBe(false);
    expect(structured<{ rows: unknown[][] }>(await w.call('read_query', { query: 'SELECT 3' })).rows).toEqual(
      [[3]],
    );
  });
});
