import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { createCursorCodec, paginateSource } from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import { busyThreads, untilThreadsStop } from '@mcpkit/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ContentHit,
  type ContentSearchOptions,
  compileQuery,
  contentSource,
  contentStats,
  isContentPosition,
} from '../src/fs/content-search.js';
import {
  type Batch,
  clip,
  FINISHED,
  type FileResult,
  lineTest,
  STARTED,
  searchBatch,
  searchFile,
  searchText,
} from '../src/fs/content-worker.js';
import { compileGlob } from '../src/fs/glob.js';
import { world } from './harness.js';
import { ensureContentWorker, makeTree } from './walk-support.js';

type World = Awaited<ReturnType<typeof world>>;

const CONTEXT = { contextLines: 1, maxLineChars: 300, plain: false };

describe('content matching (the worker side, in process)', () => {
  it('escapes a literal query and compiles a regex, refusing a malformed one in one sentence', () => {
    expect(compileQuery('a.b(c', false, true)).toEqual({
      source: 'a\\.b\\(c',
      flags: '',
      literal: 'a.b(c',
      plain: true,
    });
    expect(compileQuery('a.b', false, false)).toMatchObject({ flags: 'i', plain: true });
    expect(compileQuery('^a+$', true, false)).toEqual({ source: '^a+$', flags: 'i', plain: false });
    expect(() => compileQuery('(unclosed', true, false)).toThrow(UserError);
    expect(() => compileQuery('(unclosed', true, false)).toThrow(/regex is not valid/);
  });

  it('finds hits with context lines, 1-based, across CRLF, skipping and limiting', () => {
    const text = 'one\r\ntwo needle\r\nthree\r\nneedle four\r\n';
    const test = lineTest({ source: 'needle', flags: '' });
    const hits = searchText(text, test, CONTEXT, 0, 10);
    expect(hits).toEqual([
      { line: 2, text: 'two needle', before: ['one'], after: ['three'] },
      { line: 4, text: 'needle four', before: ['three'], after: [''] },
    ]);
    expect(searchText(text, test, CONTEXT, 1, 10).map((h) => h.line)).toEqual([4]);
    expect(searchText(text, test, CONTEXT, 0, 1).map((h) => h.line)).toEqual([2]);
    const insensitive = lineTest({ source: 'NEEDLE', flags: 'i' });
    expect(searchText(text, insensitive, { ...CONTEXT, contextLines: 0 }, 0, 10)).toHaveLength(2);
  });

  it('shows a window of a very long line around the match', () => {
    const line = `${'x'.repeat(5000)}NEEDLE${'y'.repeat(5000)}`;
    const shown = clip(line, 5000, 300);
    expect(shown).toContain('NEEDLE');
    expect(shown.length).toBeLessThanOrEqual(302);
    expect(shown.startsWith('…') && shown.endsWith('…')).toBe(true);
  });

  describe('files', () => {
    let w: World;
    beforeEach(async () => {
      w = await world();
    });
    afterEach(() => w.cleanup());
    const config = (root: string) => ({
      source: 'x',
      flags: '',
      plain: true,
      contextLines: 0,
      maxFileBytes: 1024,
      maxLineChars: 300,
      root,
    });

    it('skips binaries, files over the cap, links and special files without hanging', async () => {
      const a = w.allowed;
      await writeFile(join(a, 'bin'), Buffer.from([120, 0, 120]));
      await writeFile(join(a, 'big'), 'x'.repeat(2048));
      await writeFile(join(a, 'ok'), 'x\n');
      await symlink(join(w.outside, 'secret.txt'), join(a, 'link'));
      execFileSync('mkfifo', [join(a, 'fifo')]);
      const test = lineTest({ source: 'x', flags: '' });
      const run = (name: string) =>
        searchFile({ id: 0, path: join(a, name), skip: 0, limit: 10 }, test, config(a));
      expect(run('bin').skipped).toBe('binary');
      expect(run('big').skipped).toBe('large');
      expect(run('link').skipped).toBe('unreadable');
      expect(run('fifo').skipped).toBe('unreadable');
      expect(run('missing').skipped).toBe('unreadable');
      expect(run('ok')).toEqual({ id: 0, hits: [{ line: 1, text: 'x', before: [], after: [] }] });
      // Opened inside another root than the one searched: refused after opening.
      expect(
        searchFile({ id: 1, path: join(a, 'ok'), skip: 0, limit: 10 }, test, config(w.outside)).skipped,
      ).toBe('unreadable');
    });
  });
});

describe('batches of one directory (the worker side, in process)', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
    await makeTree(w.allowed, {
      sub: { 'a.txt': 'key one\n', 'b.txt': 'nothing\n', 'c.txt': 'key three\n' },
      '.ssh': { 'a.txt': 'PRIVATE KEY\n', 'b.txt': 'nothing\n', 'c.txt': 'PRIVATE KEY\n' },
    });
  });
  afterEach(() => w.cleanup());
  const config = (root: string) => ({
    ...compileQuery('key', false, false),
    contextLines: 0,
    maxFileBytes: 1024,
    maxLineChars: 300,
    root,
    hitsPerFile: 10,
  });
  const run = (batch: Batch, root = w.allowed) => {
    const posted: FileResult[] = [];
    const progress = new Int32Array(new SharedArrayBuffer(8)).fill(-1);
    searchBatch(batch, lineTest(config(root)), config(root), (r) => posted.push(r), progress);
    return { posted, started: progress[STARTED], finished: progress[FINISHED] };
  };
  const names = ['a.txt', 'b.txt', 'c.txt'];

  it('posts only files with hits, skips hits of a resumed first file, and records progress', () => {
    const { posted, started, finished } = run({ first: 7, dir: join(w.allowed, 'sub'), names, skip: 0 });
    expect(posted.map((r) => [r.id, r.hits.map((h) => h.text)])).toEqual([
      [7, ['key one']],
      [9, ['key three']],
    ]);
    expect([started, finished]).toEqual([9, 9]);
    const resumed = run({ first: 0, dir: join(w.allowed, 'sub'), names: ['a.txt'], skip: 1 });
    expect(resumed.posted).toEqual([]);
  });

  it('reads nothing through a directory swapped for a link after the walk, even one inside the root', async () => {
    const sub = join(w.allowed, 'sub');
    await rename(sub, join(w.allowed, 'sub_old'));
    await symlink(join(w.allowed, '.ssh'), sub);
    const { posted } = run({ first: 0, dir: sub, names, skip: 0 });
    expect(posted.map((r) => r.skipped)).toEqual(['unreadable', 'unreadable', 'unreadable']);
    expect(JSON.stringify(posted)).not.toContain('PRIVATE');
  });

  it('refuses a directory outside the root searched, and names that are not one entry', () => {
    const outside = run({ first: 0, dir: join(w.allowed, 'sub'), names, skip: 0 }, w.outside);
    expect(outside.posted.map((r) => r.skipped)).toEqual(['unreadable', 'unreadable', 'unreadable']);
    const odd = run({ first: 0, dir: join(w.allowed, 'sub'), names: ['../.ssh/a.txt', '..', ''], skip: 0 });
    expect(odd.posted.map((r) => r.skipped)).toEqual(['unreadable', 'unreadable', 'unreadable']);
  });

  it('reports nothing found in a directory moved out of the root while it was being read', async () => {
    const sub = join(w.allowed, 'sub');
    await mkdir(join(w.outside, 'moved'));
    const posted: FileResult[] = [];
    const cfg = config(w.allowed);
    // Moved right after the first file's report: the files read after it come from outside the root.
    searchBatch({ first: 0, dir: sub, names, skip: 0 }, lineTest(cfg), cfg, (r) => {
      if (posted.length === 0) renameSync(sub, join(w.outside, 'moved', 'sub'));
      posted.push(r);
    });
    expect(posted.map((r) => r.skipped ?? r.hits.map((h) => h.text).join())).toEqual([
      'key one',
      'unreadable',
    ]);
  });
});

describe('content search through the worker', () => {
  let w: World;
  beforeAll(() => ensureContentWorker());
  beforeEach(async () => {
    w = await world();
    await makeTree(w.allowed, {
      'a.ts': 'const needle = 1;\nother\nNeedle again\n',
      'b.md': 'no match here\n',
      src: { 'c.ts': 'x\nneedle in c\n', 'd.js': 'needle in d\n' },
      'evil.txt': `${'a'.repeat(40)}!\n`,
    });
    await writeFile(join(w.allowed, 'image.bin'), Buffer.concat([Buffer.from('needle'), Buffer.alloc(16)]));
    await writeFile(join(w.allowed, 'huge.log'), `needle\n${'z'.repeat(3 * 1024 * 1024)}`);
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak.txt'));
  });
  afterEach(() => w.cleanup());

  const codec = createCursorCodec({ key: randomBytes(32) });
  const search = async (
    options: Partial<ContentSearchOptions> & { query: ContentSearchOptions['query'] },
  ) => {
    const stats = contentStats();
    const source = contentSource({
      root: w.allowed,
      contextLines: 0,
      budgetMs: 5000,
      hitsPerFile: 101,
      stats,
      ...options,
    });
    const page = await paginateSource(source, {
      codec,
      list: 't',
      cursor: undefined,
      pageSize: 100,
      isPosition: isContentPosition,
    });
    return { hits: page.page.map((p) => p.value), stats };
  };
  const where = (hits: ContentHit[]) => hits.map((h) => `${h.file.slice(w.allowed.length + 1)}:${h.line}`);

  it('finds a literal in walk order, case-insensitively, and counts what it skipped', async () => {
    const { hits, stats } = await search({ query: compileQuery('needle', false, false) });
    expect(where(hits)).toEqual(['a.ts:1', 'a.ts:3', 'src/c.ts:2', 'src/d.js:1']);
    expect(stats).toMatchObject({ skippedBinary: 1, skippedLarge: 1, filesSearched: 5 });
    expect(hits.every((h) => !h.file.includes('leak'))).toBe(true);
  });

  it('runs a regex, case-sensitively when asked, limited by an include glob', async () => {
    const { hits } = await search({ query: compileQuery('^Needle', true, true) });
    expect(where(hits)).toEqual(['a.ts:3']);
    const ts = await search({ query: compileQuery('needle', false, true), include: compileGlob('*.ts') });
    expect(where(ts.hits)).toEqual(['a.ts:1', 'src/c.ts:2']);
  });

  it('stops a catastrophic regex at the time budget, keeps what it found, and says where', async () => {
    // The regex never ends on evil.txt; the budget's flag and the file it names show what stopped it.
    const { hits, stats } = await search({
      query: compileQuery('needle|(a+)+$', true, false),
      budgetMs: 1500,
    });
    expect(where(hits)).toEqual(['a.ts:1', 'a.ts:3']);
    expect(stats.timedOut?.file).toBe(join(w.allowed, 'evil.txt'));
    expect(stats.timedOut?.resume).toMatchObject({ h: -1 });
  });

  it('keeps hits of earlier directories at the budget, and resumes after the file it stopped in', async () => {
    await makeTree(w.allowed, {
      d1: { 'x.txt': 'needle d1\n' },
      d2: { 'evil.txt': `${'a'.repeat(40)}!\n`, 'y.txt': 'needle d2\n' },
      d3: { 'z.txt': 'needle d3\n' },
    });
    const query = compileQuery('needle|(a+)+$', true, false);
    const include = compileGlob('d*/**');
    const first = await search({ query, include, budgetMs: 1000 });
    expect(where(first.hits)).toEqual(['d1/x.txt:1']);
    expect(first.stats.timedOut?.file).toBe(join(w.allowed, 'd2', 'evil.txt'));
    const resume = first.stats.timedOut?.resume;
    expect(resume).toMatchObject({ h: -1 });
    const stats = contentStats();
    const rest: ContentHit[] = [];
    const source = contentSource({
      root: w.allowed,
      query,
      include,
      contextLines: 0,
      budgetMs: 5000,
      hitsPerFile: 10,
      stats,
    });
    for await (const step of source(resume, undefined)) rest.push(step.item.value);
    expect(where(rest)).toEqual(['d2/y.txt:1', 'd3/z.txt:1']);
    expect(stats.timedOut).toBeUndefined();
  });

  it('throws CancelledError on a cancellation inside a runaway regex, and stops the worker', async () => {
    // The budget is past the test's timeout, so only the cancel can end this search.
    const controller = new AbortController();
    const source = contentSource({
      root: w.allowed,
      query: compileQuery('(a+)+$', true, false),
      contextLines: 0,
      budgetMs: 30_000,
      hitsPerFile: 10,
      stats: contentStats(),
    });
    let settled = false;
    const run = paginateSource(source, {
      codec,
      list: 't',
      cursor: undefined,
      pageSize: 10,
      signal: controller.signal,
    }).finally(() => {
      settled = true;
    });
    // Awaited below; until then a rejection must not count as unhandled.
    run.catch(() => {});
    // Cancelled once a worker is seen spinning in evil.txt (at once where /proc is missing).
    const spinning = await busyThreads(process.pid, () => {
      if (settled) throw new Error('the search ended before it was cancelled');
    });
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    // The worker is ended or idle, not left to run out its budget.
    await untilThreadsStop(process.pid, spinning);
  });
});
