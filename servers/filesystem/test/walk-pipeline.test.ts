import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createCursorCodec, type PageSource } from '@mcpkit/core/pagination';
import { slowPaths } from '@mcpkit/core/roots';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Hidden, listingFilter } from '../src/fs/listing.js';
import { boundedPage, type Positioned } from '../src/fs/paging.js';
import { WalkLister } from '../src/fs/verified-listing.js';
import { type WalkEntry, type WalkOptions, walk, walkStats } from '../src/fs/walk.js';
import { world } from './harness.js';
import { makeTree } from './walk-support.js';

type World = Awaited<ReturnType<typeof world>>;

async function collect(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walk(root, options)) out.push(entry);
  return out;
}

/** Makes every listing look slow: each reading of the clock is 5 ms after the previous one. */
function slowClock(): void {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => {
    now += 5;
    return now;
  });
}

describe('listings inline, then through the thread pool once they turn slow', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
    await makeTree(w.allowed, {
      a: { b: { c: { 'x.txt': '' }, 'y.txt': '' }, d: { 'z.txt': '' } },
      e: { f: { g: { 'deep.txt': '' } } },
      'top.txt': '',
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await w.cleanup();
  });

  it('lists inline while listings are quick', () => {
    const lister = new WalkLister(w.allowed);
    for (let i = 0; i < 20; i++) expect(Array.isArray(lister.list(w.allowed))).toBe(true);
    expect(lister.sync).toBe(true);
  });

  it('switches after a few slow listings, not after one (a pause of the process is not the disk)', async () => {
    slowClock();
    const lister = new WalkLister(w.allowed);
    lister.list(w.allowed);
    lister.list(w.allowed);
    expect(lister.sync).toBe(true);
    lister.list(w.allowed);
    expect(lister.sync).toBe(false);
    const later = lister.list(join(w.allowed, 'a'));
    expect(later).toBeInstanceOf(Promise);
    expect((await later).map((d) => d.name).sort()).toEqual(['b', 'd']);
  });

  it('never lists inline or ahead on a network or FUSE mount', async () => {
    slowPaths.add(w.allowed);
    try {
      const lister = new WalkLister(w.allowed);
      expect(lister.sync).toBe(false);
      expect(lister.mayReadAhead(join(w.allowed, 'a'))).toBe(false);
      const listing = lister.list(w.allowed);
      expect(listing).toBeInstanceOf(Promise);
      expect((await listing).map((d) => d.name)).toContain('top.txt');
    } finally {
      slowPaths.clearAdded();
    }
  });

  it('walks the same entries in the same order either way, reading ahead once asynchronous', async () => {
    const quick = await collect(w.allowed);
    slowClock();
    const stats = walkStats();
    const slow = await collect(w.allowed, { stats });
    expect(slow.map((e) => e.relative)).toEqual(quick.map((e) => e.relative));
    expect(stats.directoriesRead).toBe(8);
  });
});

describe('the secrets filter of a walk', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.cleanup());

  it('hides secret names at any depth and whole secret directories, and counts them', async () => {
    await makeTree(w.allowed, {
      x: {
        '.env': 'TOKEN=1',
        keys: { 'server.PEM': 'k', 'notes.txt': 'n' },
        'My.Env.Files': { 'readme.md': 'r' },
        '.SSH': { config: 'c' },
      },
    });
    const hidden: Hidden = { secrets: 0 };
    const exclude = listingFilter(w.allowed, undefined, true, hidden)!;
    const seen = (await collect(w.allowed, { exclude })).map((e) => e.relative);
    expect(seen).toEqual(['x', 'x/My.Env.Files', 'x/My.Env.Files/readme.md', 'x/keys', 'x/keys/notes.txt']);
    expect(hidden.secrets).toBe(3);
  });

  it('hides an entry whose directory path is secret even when its own name is not', () => {
    const hidden: Hidden = { secrets: 0 };
    const exclude = listingFilter(w.allowed, undefined, true, hidden)!;
    // As a walk resumed inside `.ssh` by index would ask, without having seen `.ssh` itself.
    const path = join(w.allowed, 'a', '.ssh', 'config');
    expect(exclude('a/.ssh/config', 'config', false, path, 'a/.ssh')).toBe(true);
    expect(exclude('a/b/config', 'config', false, join(w.allowed, 'a', 'b', 'config'), 'a/b')).toBe(false);
    expect(hidden.secrets).toBe(1);
  });
});

describe('boundedPage', () => {
  const codec = createCursorCodec({ key: randomBytes(32) });

  /** Numbers 0…count-1 as a resumable source, counting how many items were read. */
  function numbers(count: number) {
    const counter = { read: 0 };
    const source: PageSource<Positioned<number, number>, number> = async function* (from) {
      for (let i = from === undefined ? 0 : from + 1; i < count; i++) {
        counter.read++;
        yield { item: { value: i, position: i }, position: i };
      }
    };
    return { source, counter };
  }

  // Each item renders as 9 bytes plus a newline: ten items per 100-byte page.
  const options = {
    codec,
    list: 'n',
    pageSize: 1000,
    budgetBytes: 100,
    render: (n: number) => `item-${String(n).padStart(4, '0')}`,
  };

  it('stops reading the source at the first item past the budget, and resumes right after the page', async () => {
    const { source, counter } = numbers(50);
    const first = await boundedPage(source, { ...options, cursor: undefined });
    expect(first.items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(first.texts).toEqual(first.items.map(options.render));
    expect(counter.read).toBe(11);
    const second = await boundedPage(source, { ...options, cursor: first.nextCursor });
    expect(second.items[0]).toBe(10);
  });

  it('ends a page at pageSize with a cursor, and the last page without one', async () => {
    const { source } = numbers(12);
    const first = await boundedPage(source, { ...options, pageSize: 5, cursor: undefined });
    expect(first.items).toEqual([0, 1, 2, 3, 4]);
    expect(first.texts).toHaveLength(5);
    const second = await boundedPage(source, { ...options, pageSize: 5, cursor: first.nextCursor });
    const third = await boundedPage(source, { ...options, pageSize: 5, cursor: second.nextCursor });
    expect(third.items).toEqual([10, 11]);
    expect(third.nextCursor).toBeUndefined();
  });

  it('keeps one item even when it alone passes the budget', async () => {
    const { source } = numbers(3);
    const page = await boundedPage(source, { ...options, budgetBytes: 4, cursor: undefined });
    expect(page.items).toEqual([0]);
    expect(page.nextCursor).toBeDefined();
  });
});
