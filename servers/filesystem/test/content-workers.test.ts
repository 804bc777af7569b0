/**
 * search_content's workers as a group: several messages spread over two workers still report in
 * walk order, a worker kept from one search serves the next with that search's own query and root,
 * and a worker stopped mid-file (time budget, cancellation) is ended, never kept.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createCursorCodec, paginateSource } from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import { threadCpuTimes, untilThreadsEnd } from '@mcpkit/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ContentHit,
  type ContentSearchOptions,
  compileQuery,
  contentSource,
  contentStats,
  isContentPosition,
} from '../src/fs/content-search.js';
import { endIdleWorkers } from '../src/fs/content-worker-pool.js';
import { compileGlob } from '../src/fs/glob.js';
import { world } from './harness.js';
import { ensureContentWorker, makeTree, type TreeSpec } from './walk-support.js';

type World = Awaited<ReturnType<typeof world>>;

const codec = createCursorCodec({ key: randomBytes(32) });
const EVIL = `${'a'.repeat(40)}!\n`;

/** `count` files named f000…, every `every`th holding the needle on its second line. */
function files(count: number, every: number): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < count; i++)
    spec[`f${String(i).padStart(3, '0')}.txt`] = i % every === 0 ? `x\nneedle ${i}\n` : `nothing ${i}\n`;
  return spec;
}

/** Where the hits in `files(count, every)` under `dir` are, in walk order. */
function expectedHits(dir: string, count: number, every: number): string[] {
  const hits: string[] = [];
  for (let i = 0; i < count; i += every) hits.push(`${dir}/f${String(i).padStart(3, '0')}.txt:2`);
  return hits;
}

/** The threads of this process now (undefined without /proc). */
async function threads(): Promise<Set<number> | undefined> {
  const times = await threadCpuTimes(process.pid);
  return times && new Set(times.keys());
}

/** Threads in `now` that were not in `before`. */
const newSince = (before: Set<number>, now: Set<number> | undefined): number[] =>
  [...(now ?? [])].filter((tid) => !before.has(tid));

describe('content search workers', () => {
  let w: World;
  beforeAll(() => ensureContentWorker());
  beforeEach(async () => {
    w = await world();
    // Each test starts with no worker kept from another, so the threads it sees start are its own.
    await endIdleWorkers();
  });
  afterEach(() => w.cleanup());

  type Options = Partial<ContentSearchOptions> & { query: ContentSearchOptions['query'] };
  const search = async (options: Options, root = w.allowed) => {
    const stats = contentStats();
    const source = contentSource({
      root,
      contextLines: 0,
      budgetMs: 10_000,
      hitsPerFile: 11,
      stats,
      ...options,
    });
    const page = await paginateSource(source, {
      codec,
      list: 't',
      cursor: undefined,
      pageSize: 1000,
      isPosition: isContentPosition,
    });
    return { hits: page.page.map((p) => p.value), stats };
  };
  const where = (hits: ContentHit[], root = w.allowed) =>
    hits.map((h) => `${h.file.slice(root.length + 1)}:${h.line}`);

  it('reports in walk order across many messages, the same with one worker or two', async () => {
    // 2 × 300 + 200 files: several messages, and directory runs longer than one batch.
    await makeTree(w.allowed, { a: files(300, 7), b: files(300, 11), c: { d: files(200, 13) } });
    const query = compileQuery('needle', false, false);
    const one = await search({ query, workers: 1 });
    const two = await search({ query, workers: 2 });
    const expected = [
      ...expectedHits('a', 300, 7),
      ...expectedHits('b', 300, 11),
      ...expectedHits('c/d', 200, 13),
    ];
    expect(where(one.hits)).toEqual(expected);
    expect(where(two.hits)).toEqual(expected);
    expect(one.stats.filesSearched).toBe(800);
    expect(two.stats.filesSearched).toBe(800);
  });

  it('serves the next search from the workers kept, with its own query and root', async () => {
    await makeTree(w.allowed, { one: files(40, 4), two: { 'z.md': 'Other words\nand OTHER\n' } });
    const before = await threads();
    const first = await search({ query: compileQuery('needle', false, false) });
    expect(where(first.hits)).toHaveLength(10);
    const kept = await threads();
    const root = join(w.allowed, 'two');
    const second = await search({ query: compileQuery('OTHER', false, true) }, root);
    expect(where(second.hits, root)).toEqual(['z.md:2']);
    if (!before || !kept) return;
    // The first search started its workers; the second started none: it ran on those kept.
    expect(newSince(before, kept).length).toBeGreaterThan(0);
    expect(newSince(kept, await threads())).toEqual([]);
  });

  it('ends a worker still busy when its page filled, so the next search gets no stale answer', async () => {
    await makeTree(w.allowed, { a: files(600, 1), b: { 'z.md': 'other\n' } });
    const source = contentSource({
      root: w.allowed,
      query: compileQuery('needle', false, false),
      contextLines: 0,
      budgetMs: 10_000,
      hitsPerFile: 2,
      stats: contentStats(),
    });
    // A page of one hit: the walk has sent hundreds of files ahead, still being searched.
    const page = await paginateSource(source, { codec, list: 't', cursor: undefined, pageSize: 1 });
    expect(page.page).toHaveLength(1);
    const next = await search({ query: compileQuery('other', false, false) });
    expect(where(next.hits)).toEqual(['b/z.md:1']);
    expect(next.stats.filesSearched).toBe(601);
  });

  it('at the time budget keeps hits of earlier messages, names the stuck file, and resumes after it', async () => {
    await makeTree(w.allowed, {
      a: files(300, 50),
      b: { 'evil.txt': EVIL, 'y.txt': 'needle b\n' },
      c: { 'z.txt': 'needle c\n' },
    });
    const query = compileQuery('needle|(a+)+$', true, false);
    const before = await threads();
    const first = await search({ query, budgetMs: 1500, workers: 2 });
    expect(where(first.hits)).toEqual(expectedHits('a', 300, 50));
    expect(first.stats.timedOut?.file).toBe(join(w.allowed, 'b', 'evil.txt'));
    const resume = first.stats.timedOut?.resume;
    expect(resume).toMatchObject({ h: -1 });
    // The workers it stopped, one deep in the regex, are ended rather than kept for the next search.
    if (before) await untilThreadsEnd(process.pid, newSince(before, await threads()));
    const stats = contentStats();
    const rest: ContentHit[] = [];
    const source = contentSource({
      root: w.allowed,
      query,
      contextLines: 0,
      budgetMs: 10_000,
      hitsPerFile: 11,
      stats,
    });
    for await (const step of source(resume, undefined)) rest.push(step.item.value);
    expect(where(rest)).toEqual(['b/y.txt:1', 'c/z.txt:1']);
    expect(stats.timedOut).toBeUndefined();
  });

  it('ends the kept workers a cancelled search was running on', async () => {
    await makeTree(w.allowed, { a: files(20, 5), 'evil.txt': EVIL });
    const before = await threads();
    await search({ query: compileQuery('needle', false, false), include: compileGlob('a/**') });
    const kept = before && newSince(before, await threads());
    const controller = new AbortController();
    const source = contentSource({
      root: w.allowed,
      query: compileQuery('(a+)+$', true, false),
      contextLines: 0,
      budgetMs: 30_000,
      hitsPerFile: 10,
      stats: contentStats(),
    });
    const run = paginateSource(source, {
      codec,
      list: 't',
      cursor: undefined,
      pageSize: 10,
      signal: controller.signal,
    });
    // A pause to let a worker reach evil.txt; landing before it would still have to cancel.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    if (!kept) return;
    expect(kept.length).toBeGreaterThan(0);
    // Taken from the pool, then terminated: the budget (30 s) is past the test's timeout.
    await untilThreadsEnd(process.pid, kept);
  });
});
