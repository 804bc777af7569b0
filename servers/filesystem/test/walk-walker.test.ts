import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { createCursorCodec, paginateSource } from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileExcludes } from '../src/fs/glob.js';
import { walkSource } from '../src/fs/listing.js';
import { isWalkPosition, type WalkEntry, type WalkOptions, walk, walkStats } from '../src/fs/walk.js';
import { treeHash, world } from './harness.js';
import { fastScratch, makeTree, makeWideTree } from './walk-support.js';

type World = Awaited<ReturnType<typeof world>>;

async function collect(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walk(root, options)) out.push(entry);
  return out;
}

const rel = (entries: WalkEntry[]) => entries.map((e) => e.relative);

describe('walk', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
    await makeTree(w.allowed, {
      'b.txt': 'b',
      'A.txt': 'A',
      '.hidden': 'h',
      a: { 'z.ts': 'z', c: { 'deep.md': 'd' } },
    });
  });
  afterEach(() => w.cleanup());

  it('yields every entry depth-first in code-unit name order, with types and depths', async () => {
    const entries = await collect(w.allowed);
    expect(rel(entries)).toEqual(['.hidden', 'A.txt', 'a', 'a/c', 'a/c/deep.md', 'a/z.ts', 'b.txt']);
    expect(entries.map((e) => e.depth)).toEqual([1, 1, 1, 2, 3, 2, 1]);
    expect(entries.find((e) => e.name === 'c')).toMatchObject({
      type: 'directory',
      path: join(w.allowed, 'a', 'c'),
    });
    expect(entries.find((e) => e.name === 'z.ts')?.type).toBe('file');
  });

  it('stops at maxDepth without reading deeper directories', async () => {
    const stats = walkStats();
    expect(rel(await collect(w.allowed, { maxDepth: 1, stats }))).toEqual(['.hidden', 'A.txt', 'a', 'b.txt']);
    expect(stats.directoriesRead).toBe(1);
    expect(rel(await collect(w.allowed, { maxDepth: 2 }))).toEqual([
      '.hidden',
      'A.txt',
      'a',
      'a/c',
      'a/z.ts',
      'b.txt',
    ]);
  });

  it('leaves out excluded entries and never enters an excluded directory', async () => {
    const stats = walkStats();
    const exclude = compileExcludes(['c', '*.txt']);
    expect(rel(await collect(w.allowed, { stats, ...(exclude ? { exclude } : {}) }))).toEqual([
      '.hidden',
      'a',
      'a/z.ts',
    ]);
    expect(stats.directoriesRead).toBe(2);
  });

  it('reports symbolic links as links and never follows them out of the root', async () => {
    await symlink(w.outside, join(w.allowed, 'out'));
    await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak'));
    await symlink(w.allowed, join(w.allowed, 'a', 'loop'));
    const before = await treeHash(w.outside);
    const entries = await collect(w.allowed);
    expect(entries.find((e) => e.name === 'out')?.type).toBe('symlink');
    expect(entries.find((e) => e.name === 'leak')?.type).toBe('symlink');
    expect(entries.find((e) => e.name === 'loop')?.type).toBe('symlink');
    expect(entries.some((e) => e.relative.startsWith('out/') || e.name === 'secret.txt')).toBe(false);
    expect(entries.every((e) => e.path.startsWith(`${w.allowed}/`))).toBe(true);
    expect(entries).toHaveLength(10);
    expect(await treeHash(w.outside)).toBe(before);
  });

  it('honours .gitignore files scoped to their directory, re-includes, and skips .git', async () => {
    await makeTree(w.allowed, {
      '.gitignore': '*.log\nbuild/\n',
      '.git': { HEAD: 'ref' },
      'x.log': '',
      build: { 'out.js': '' },
      sub: {
        '.gitignore': '!keep.log\nlocal.txt\n',
        'keep.log': '',
        'drop.log': '',
        'local.txt': '',
        build: '',
      },
      other: { 'local.txt': '' },
    });
    const all = rel(await collect(w.allowed, { gitignore: { boundary: w.allowed } }));
    expect(all).toContain('sub/keep.log');
    expect(all).toContain('other/local.txt');
    expect(all).toContain('sub/build'); // a file: "build/" only matches directories
    for (const gone of [
      'x.log',
      'build',
      'build/out.js',
      'sub/drop.log',
      'sub/local.txt',
      '.git',
      '.git/HEAD',
    ])
      expect(all).not.toContain(gone);
    // Started below the repository top, the rules above still apply (up to the allowed directory).
    const fromSub = rel(await collect(join(w.allowed, 'sub'), { gitignore: { boundary: w.allowed } }));
    expect(fromSub).toEqual(['.gitignore', 'build', 'keep.log']);
    // Without the option nothing is ignored.
    expect(rel(await collect(w.allowed))).toContain('x.log');
  });

  it('resumes right after any position (and at it, inclusive) without re-listing the tree', async () => {
    const full = await collect(w.allowed);
    for (const [i, entry] of full.entries()) {
      const stats = walkStats();
      expect(rel(await collect(w.allowed, { from: entry.position, stats }))).toEqual(rel(full.slice(i + 1)));
      // Only the directories on the way to the position, plus what is left, are read.
      expect(stats.directoriesRead).toBeLessThanOrEqual(3);
      expect(rel(await collect(w.allowed, { from: entry.position, inclusive: true }))).toEqual(
        rel(full.slice(i)),
      );
    }
  });

  it('resumes at the next name when the entry it stopped at is gone', async () => {
    const full = await collect(w.allowed);
    const at = full.find((e) => e.relative === 'a/c')!;
    await rm(join(w.allowed, 'a', 'c'), { recursive: true });
    expect(rel(await collect(w.allowed, { from: at.position }))).toEqual(['a/z.ts', 'b.txt']);
    const deep = full.find((e) => e.relative === 'a/c/deep.md')!;
    expect(rel(await collect(w.allowed, { from: deep.position }))).toEqual(['a/z.ts', 'b.txt']);
  });

  it('uses indices instead of names for very long paths, and still resumes', async () => {
    const long = 'n'.repeat(200);
    let dir = w.allowed;
    for (let i = 0; i < 6; i++) {
      dir = join(dir, `${long}${i}`);
      await mkdir(dir);
    }
    await writeFile(join(dir, 'x'), '');
    await writeFile(join(dir, 'y'), '');
    const full = await collect(w.allowed);
    const x = full.find((e) => e.name === 'x')!;
    expect(x.position.every((key) => typeof key === 'number')).toBe(true);
    expect(isWalkPosition(x.position)).toBe(true);
    expect(rel(await collect(w.allowed, { from: x.position }))).toEqual(rel(full.slice(full.indexOf(x) + 1)));
  });

  it('pages through a tree in three pages, resuming the walk each time instead of restarting it', async () => {
    const big = join(w.allowed, 'big');
    makeWideTree(big, 30, 600);
    const codec = createCursorCodec({ key: randomBytes(32) });
    const stats = walkStats();
    const source = walkSource(big, { stats });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await paginateSource(source, {
        codec,
        list: 'test',
        cursor,
        pageSize: 250,
        isPosition: isWalkPosition,
      });
      seen.push(...page.page.map((p) => p.value.relative));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(rel(await collect(big)));
    // 31 directories in all. Restarting each page would read them again up to the cursor (~65 in
    // all); resuming reads each once, plus the two listings on the path to each cursor.
    expect(stats.directoriesRead).toBeLessThanOrEqual(31 + 2 * (pages - 1));
  });

  it('skips a directory that cannot be read and counts it', async () => {
    const stats = walkStats();
    const names: string[] = [];
    for await (const entry of walk(w.allowed, { stats })) {
      names.push(entry.relative);
      // Gone between its listing and being entered: the walk goes on.
      if (entry.relative === 'a') await rm(join(w.allowed, 'a'), { recursive: true });
    }
    expect(names).toEqual(['.hidden', 'A.txt', 'a', 'b.txt']);
    expect(stats.unreadable).toBe(1);
  });

  it.skipIf(process.getuid?.() === 0)('skips a directory without read permission', async () => {
    await chmod(join(w.allowed, 'a'), 0o000);
    const stats = walkStats();
    try {
      expect(rel(await collect(w.allowed, { stats }))).toEqual(['.hidden', 'A.txt', 'a', 'b.txt']);
      expect(stats.unreadable).toBe(1);
    } finally {
      await chmod(join(w.allowed, 'a'), 0o755);
    }
  });

  it('fails on the root with one sentence naming only the display name', async () => {
    const options = { display: 'allowed/b.txt' };
    await expect(collect(join(w.allowed, 'b.txt'), options)).rejects.toBeInstanceOf(UserError);
    await expect(collect(join(w.allowed, 'b.txt'), options)).rejects.toThrow(
      /"allowed\/b\.txt" is not a directory/,
    );
    const error = await collect(join(w.allowed, 'nope'), options).catch((e: Error) => e);
    expect(String(error)).not.toContain(w.base);
  });
});

describe('walk cancellation', () => {
  let root: string;
  beforeEach(() => {
    root = fastScratch('mcpkit-walk-');
    makeWideTree(root, 200, 20_000);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stops a 20k-entry walk at the entry after the abort, and walks no further', async () => {
    const controller = new AbortController();
    const stats = walkStats();
    // Aborted from inside, a thousand entries in: mid-walk whatever the machine's speed.
    const match = () => {
      if (stats.entriesSeen === 1000) controller.abort();
      return true;
    };
    await expect(collect(root, { signal: controller.signal, stats, match })).rejects.toBeInstanceOf(
      CancelledError,
    );
    // Counted work, not time: the walk read at most one entry past the abort, of 20 000.
    const seen = stats.entriesSeen;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stats.entriesSeen).toBe(seen);
    expect(seen).toBeLessThanOrEqual(1001);
  });
});
