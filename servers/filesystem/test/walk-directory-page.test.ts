import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCursorCodec } from '@mcpkit/core/pagination';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryPageOptions, directoryPage } from '../src/fs/directory-page.js';
import { walkStats } from '../src/fs/walk.js';
import { world } from './harness.js';

const codec = createCursorCodec({ key: randomBytes(32) });
let w: Awaited<ReturnType<typeof world>>;

beforeEach(async () => {
  w = await world();
  for (const name of ['b.txt', 'a.txt', 'd.txt', 'c.txt', '.env'])
    await writeFile(join(w.allowed, name), 'x');
  await mkdir(join(w.allowed, 'e-dir'));
});
afterEach(() => w.cleanup());

const options = (over: Partial<DirectoryPageOptions> = {}): DirectoryPageOptions => ({
  codec,
  list: 'list_directory:test',
  cursor: undefined,
  pageSize: 2,
  budgetBytes: 1 << 20,
  stats: walkStats(),
  display: 'allowed',
  render: (name, type) => `${type} ${name}`,
  ...over,
});

async function allNames(over: Partial<DirectoryPageOptions> = {}): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await directoryPage(w.allowed, options({ ...over, cursor }));
    pages.push(page.entries.map((e) => e.name));
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

describe('directoryPage', () => {
  it('pages a directory in code-unit name order, leaving out what exclude refuses', async () => {
    const exclude = (name: string) => name === '.env';
    expect(await allNames({ exclude })).toEqual([['a.txt', 'b.txt'], ['c.txt', 'd.txt'], ['e-dir']]);
  });

  it('ends on the last entry it shows when only excluded entries follow', async () => {
    const exclude = (name: string) => name === 'e-dir' || name === '.env';
    expect(await allNames({ exclude, pageSize: 4 })).toEqual([['a.txt', 'b.txt', 'c.txt', 'd.txt']]);
  });

  it('resumes after the cursor name even when that entry is gone', async () => {
    const first = await directoryPage(w.allowed, options({ pageSize: 3 }));
    expect(first.entries.map((e) => e.name)).toEqual(['.env', 'a.txt', 'b.txt']);
    await rm(join(w.allowed, 'b.txt'));
    const second = await directoryPage(w.allowed, options({ pageSize: 3, cursor: first.nextCursor }));
    expect(second.entries.map((e) => e.name)).toEqual(['c.txt', 'd.txt', 'e-dir']);
  });

  it('cuts a page at the byte budget but always shows one entry', async () => {
    const page = await directoryPage(w.allowed, options({ pageSize: 100, budgetBytes: 1 }));
    expect(page.entries).toHaveLength(1);
    expect(page.nextCursor).toBeDefined();
  });

  it('refuses a cursor of another listing, a walk cursor of another shape, and a forged one', async () => {
    const other = codec.encode('list_directory:other', ['a.txt']);
    const deep = codec.encode('list_directory:test', ['a', 'b']);
    for (const cursor of [other, deep, 'not-a-cursor']) {
      await expect(directoryPage(w.allowed, options({ cursor }))).rejects.toThrow(/cursor/i);
    }
  });

  it('says in one sentence when the directory is not one, and stops when cancelled', async () => {
    await expect(directoryPage(join(w.allowed, 'a.txt'), options())).rejects.toThrow(
      '"allowed" is not a directory; pass a directory to list or search.',
    );
    const controller = new AbortController();
    controller.abort();
    await expect(directoryPage(w.allowed, options({ signal: controller.signal }))).rejects.toThrow();
  });
});
