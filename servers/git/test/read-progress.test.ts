/**
 * Progress of the long reads as git's output arrives: a log over a long history, the diff of a
 * commit that changes thousands of files, a long reflog, the blame of a file with a long history
 * (cancelled halfway, too). Each run's output comes in several pieces
 * (the recorded run says how many), and a client that asked for progress hears the count grow
 * before the result.
 *
 * No clock is asserted. The call's reporter merges reports closer together than its throttle, so
 * the tests set the clock the reporter reads: one that moves past the throttle at every reading
 * shows every piece reported; one that stands still shows a fast run sending only its start and
 * its end, however many pieces came.
 */
import assert from 'node:assert/strict';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError } from '@mcpkit/core/progress';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { makeSlowHistory, SLOW_FILE } from './e2e-history.js';
import { expectExited, lastRun, runs } from './git-runs.js';
import {
  type ImportedCommit,
  importCommits,
  lineCommits,
  type ReadFixture,
  readFixture,
} from './read-kit.js';
import { git } from './repo-kit.js';

vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  const { recording } = await import('./git-runs.js');
  return { ...real, runProcess: recording(real.runProcess) };
});

type Report = { progress: number; total?: number; message?: string };

const COMMITS = 1500;
const FILES = 800;
const REFLOG_ENTRIES = 3000;
/** Commits that each add a line: blame settles one line per commit as it walks back. */
const BLAMED_LINES = 1000;

/** `n` commits with a paragraph of message each: a log of them is several pipe-fulls of output. */
function longHistory(n: number): ImportedCommit[] {
  const body = 'This paragraph makes each record long enough to matter. '.repeat(8);
  return Array.from({ length: n }, (_, i) => ({ message: `change ${i + 1}\n\n${body}\n`, files: {} }));
}

/** Two commits: the first adds `n` files, the second changes a line in each. */
function wideChange(n: number): ImportedCommit[] {
  const names = Array.from({ length: n }, (_, i) => `wide/file-${String(i).padStart(5, '0')}.txt`);
  const text = (v: string) => `first line\nsecond line\nthe ${v} line\nfourth line\n`;
  return [
    { message: 'add the files', files: Object.fromEntries(names.map((f) => [f, text('old')])) },
    { message: 'change them all', files: Object.fromEntries(names.map((f) => [f, text('new')])) },
  ];
}

/** A clock for the reporter: `step` ms further at every reading (0: time stands still). */
function clock(step: number): MockInstance<() => number> {
  let now = Date.now();
  return vi.spyOn(Date, 'now').mockImplementation(() => {
    now += step;
    return now;
  });
}

/** Calls `name` and returns its result with the reports heard before it. */
async function withReports(session: TestSession, name: string, args: Record<string, unknown>) {
  const reports: Report[] = [];
  const result = await session.callTool(name, args, { onprogress: (p) => reports.push({ ...p }) });
  expect(result.isError, textOf(result)).toBeFalsy();
  return { result, reports: [...reports] };
}

/** Asserts the reports of one call: a start, counts of `noun` that grow, and an end above them. */
function expectGrowing(reports: Report[], noun: RegExp, starting: string): number[] {
  const counted = reports.filter((r) => noun.test(r.message ?? ''));
  const values = counted.map((r) => r.progress);
  const start = reports.find((r) => r.message === starting);
  const end = reports.at(-1);
  expect(start, 'the start is reported').toBeDefined();
  expect(end?.progress, 'the end reports its total').toBe(end?.total);
  // Several reports in the middle of the run, each further than the one before, all below the end.
  expect(values.length).toBeGreaterThanOrEqual(3);
  for (const [i, value] of values.entries()) {
    expect(value).toBeGreaterThan(i === 0 ? (start?.progress ?? 0) : (values[i - 1] ?? 0));
    expect(value).toBeLessThan(end?.progress ?? 0);
  }
  return values;
}

describe.each(['legacy', 'modern'] as const)('progress of long reads, %s era', (era) => {
  let fx: ReadFixture;
  let session: TestSession | undefined;
  let time: MockInstance<() => number> | undefined;
  afterEach(async () => {
    time?.mockRestore();
    time = undefined;
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('git_log reports the commits read so far, out of the page, while git walks the history', async () => {
    fx = await readFixture();
    importCommits(fx.repo, longHistory(COMMITS));
    session = await connect(fx.app, { era });
    time = clock(1000);
    const { result, reports } = await withReports(session, 'git_log', { max_count: COMMITS });
    time.mockRestore();
    expect((result.structuredContent as { commits: unknown[] }).commits).toHaveLength(COMMITS);
    expect(lastRun('log').chunks).toBeGreaterThanOrEqual(3);
    expectGrowing(reports, /^\d+ commits? read$/, 'Reading the history');
    // Shown out of the page (one step more: the answer is made after the last commit is read).
    const counted = reports.filter((r) => /commits? read$/.test(r.message ?? ''));
    const start = reports.find((r) => r.message === 'Reading the history');
    for (const r of counted) expect(r.total).toBe(start?.total);
    expect((start?.total ?? 0) - (start?.progress ?? 0)).toBe(COMMITS + 1);
    const last = counted.at(-1);
    expect(last?.message).toMatch(new RegExp(`^${(last?.progress ?? 0) - (start?.progress ?? 0)} commits`));
  });

  it('git_show reports the files its diff has reached, as git prints them', async () => {
    fx = await readFixture();
    importCommits(fx.repo, wideChange(FILES));
    session = await connect(fx.app, { era });
    time = clock(1000);
    const { result, reports } = await withReports(session, 'git_show', { revision: 'HEAD' });
    time.mockRestore();
    expect((result.structuredContent as { files: unknown[] }).files).toHaveLength(FILES);
    expect(lastRun('show').chunks).toBeGreaterThanOrEqual(3);
    const values = expectGrowing(reports, /^\d+ files? read$/, 'Reading the diff');
    const start = reports.find((r) => r.message === 'Reading the diff');
    // Never more files than the diff has.
    expect((values.at(-1) ?? 0) - (start?.progress ?? 0)).toBeLessThanOrEqual(FILES);
  });

  it('git_reflog reports the entries read so far', async () => {
    fx = await readFixture();
    const head = git(fx.repo, 'rev-parse', 'HEAD').trim();
    const before = git(fx.repo, 'rev-parse', 'HEAD~1').trim();
    const lines = Array.from(
      { length: REFLOG_ENTRIES },
      (_, i) =>
        `${before} ${head} Test User <test@example.com> ${1767225600 + i * 60} +0000\tcheckout: moving back and forth, take ${i + 1}\n`,
    );
    await appendFile(join(fx.repo, '.git', 'logs', 'HEAD'), lines.join(''));
    session = await connect(fx.app, { era });
    time = clock(1000);
    const { result, reports } = await withReports(session, 'git_reflog', { max_count: REFLOG_ENTRIES });
    time.mockRestore();
    expect((result.structuredContent as { entries: unknown[] }).entries).toHaveLength(REFLOG_ENTRIES);
    expect(lastRun('-g').chunks).toBeGreaterThanOrEqual(3);
    expectGrowing(reports, /^\d+ entr(y|ies) read$/, 'Reading the reflog');
  });

  it('git_blame reports the lines settled so far, out of the file, while git walks the history', async () => {
    fx = await readFixture();
    importCommits(fx.repo, lineCommits(BLAMED_LINES));
    session = await connect(fx.app, { era });
    time = clock(1000);
    const { result, reports } = await withReports(session, 'git_blame', { path: 'history.txt' });
    time.mockRestore();
    const { lines } = result.structuredContent as {
      lines: Array<{ line: number; summary: string; text: string }>;
    };
    expect(lines).toHaveLength(BLAMED_LINES);
    expect(lines.at(-1)).toMatchObject({ line: BLAMED_LINES, summary: `add line ${BLAMED_LINES}` });
    expect(lines[0]).toMatchObject({ line: 1, summary: 'add line 1', text: 'line 1' });
    // The lines came from the incremental form, in several pieces: the porcelain one prints at the end.
    const run = lastRun('blame');
    expect(run.args).toContain('--incremental');
    expect(run.chunks).toBeGreaterThanOrEqual(3);
    const values = expectGrowing(reports, /^\d+ of \d+ lines blamed$/, 'Blaming history.txt');
    // Out of the file's lines (one step more: the answer is made after the last line is settled).
    const start = reports.find((r) => r.message === 'Blaming history.txt');
    expect(start?.total).toBe(BLAMED_LINES + 1);
    const counted = reports.filter((r) => /blamed$/.test(r.message ?? ''));
    for (const r of counted) {
      expect(r.total).toBe(BLAMED_LINES + 1);
      expect(r.message).toBe(`${r.progress} of ${BLAMED_LINES} lines blamed`);
    }
    expect(values.at(-1)).toBeLessThanOrEqual(BLAMED_LINES);
  });

  // No deadline of its own: a git that stays fails the test's timeout.
  it('git_blame cancelled halfway stops its git process', async () => {
    fx = await readFixture();
    const slow = await makeSlowHistory(join(fx.base, 'repos', 'slow'), { commits: 600, lines: 4000 });
    session = await connect(fx.app, { era });
    time = clock(1000);
    const controller = new AbortController();
    const reports: Report[] = [];
    const earlier = runs.length;
    const call = session.callTool(
      'git_blame',
      { repo_path: slow, path: SLOW_FILE },
      {
        signal: controller.signal,
        onprogress: (p) => {
          reports.push({ ...p });
          // Lines settled but not all: git is in the middle of the history.
          if (/blamed$/.test(p.message ?? '')) controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    time.mockRestore();
    const halfway = reports.find((r) => /blamed$/.test(r.message ?? ''));
    expect(halfway?.progress).toBeLessThan(4001);
    // This call's blame, not one of an earlier test.
    const run = runs.slice(earlier).find((r) => r.args.includes('blame'));
    assert.ok(run, 'the call never started git blame');
    expect(run.args).toContain('--incremental');
    expect(await run.ended).toBeInstanceOf(CancelledError);
    // The very process the server started is gone.
    await expectExited(run);
    // And the server takes new work at once.
    expect(textOf(await session.callTool('git_log', { max_count: 1 }))).toContain('commit 3');
  }, 60_000);

  it('sends a fast run its start and end only: pieces closer together than the throttle are merged', async () => {
    fx = await readFixture();
    importCommits(fx.repo, longHistory(COMMITS));
    session = await connect(fx.app, { era });
    time = clock(0);
    const { reports } = await withReports(session, 'git_log', { max_count: COMMITS });
    time.mockRestore();
    expect(lastRun('log').chunks).toBeGreaterThanOrEqual(3);
    const ours = reports.filter((r) => r.message !== undefined && !/^Fulfilling/.test(r.message));
    expect(ours.map((r) => r.message)).toEqual(['Reading the history']);
    expect(reports.filter((r) => /read$/.test(r.message ?? ''))).toEqual([]);
    const end = reports.at(-1);
    expect(end?.progress).toBe(end?.total);
  });
});
