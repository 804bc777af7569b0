/**
 * Long work, both eras: a runaway read_query cancelled by the client really stops (the query
 * process that ran it is gone, and the next call gets a fresh one); a file export reports progress
 * page by page; and in the 2026 era read_query runs as a task, whose cancellation kills the query
 * process too.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { CancelledError } from '@mcpkit/core/progress';
import { cpuTimeMs, type TaskWire, taskWire, textOf, untilTask } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryRunner } from '../src/sql/query-runner.js';
import { alive } from './kit.js';
import { ERAS, structured, type ToolsWorld, toolsWorld } from './tools-kit.js';

const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/** Waits until the process is visibly working (where /proc tells), so the cancel meets a running statement. */
async function untilBusy(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const before = await cpuTimeMs(pid);
    await sleep(100);
    const after = await cpuTimeMs(pid);
    if (before === undefined || after === undefined) return sleep(300);
    if (after - before >= 15) return;
  }
  throw new Error('the query process never got busy');
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
 * statement ends in CancelledError; one the cancel missed would instead be stopped by the 15 s
 * time limit with its sentence, so the outcome, not a clock, shows which of the two stopped it.
 */
function recordOutcomes(runner: QueryRunner): Promise<unknown>[] {
  const outcomes: Promise<unknown>[] = [];
  const run = runner.run.bind(runner);
  runner.run = (sql, options) => {
    const running = run(sql, options);
    outcomes.push(
      running.then(
        () => 'finished',
        (error: unknown) => error,
      ),
    );
    return running;
  };
  return outcomes;
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
    w = await toolsWorld(era);
    await w.call('read_query', { query: 'SELECT 1' });
    const pid = w.app.context.runner.pid as number;
    expect(alive(pid)).toBe(true);
    const outcomes = recordOutcomes(w.app.context.runner);
    const controller = new AbortController();
    const outcome = w.session.callTool('read_query', { query: FOREVER }, { signal: controller.signal }).then(
      () => 'finished',
      () => 'cancelled',
    );
    await untilBusy(pid);
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
    w = await toolsWorld('modern');
    await w.call('read_query', { query: 'SELECT 1' });
    const pid = w.app.context.runner.pid as number;
    const outcomes = recordOutcomes(w.app.context.runner);
    wire = await taskWire(w.app);
    const handle = await wire.request('tools/call', { name: 'read_query', arguments: { query: FOREVER } });
    expect(handle.resultType).toBe('task');
    await untilBusy(pid);
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
