/**
 * The structured side of the two listings, in both eras: by default a count (and the summary and
 * cursor), each entry only when the client asks with `structured: true`; the text is the same
 * either way, and secrets stay out of both.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDirectory } from '../src/tools/list-directory.js';
import { listDirectoryWithSizes } from '../src/tools/list-directory-with-sizes.js';
import { fsApp, textOf, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;
type Listing = {
  count: number;
  entries?: { name: string; type: string; size?: number }[];
  nextCursor?: string;
  files?: number;
  directories?: number;
  totalBytes?: number;
};
const data = (result: { structuredContent?: unknown }): Listing => result.structuredContent as Listing;

let w: World;
beforeAll(async () => {
  w = await world();
  await writeFile(join(w.allowed, 'b.txt'), 'bb');
  await writeFile(join(w.allowed, 'a.txt'), 'a');
  await writeFile(join(w.allowed, 'ünïcode-名前.txt'), 'ccc');
  await writeFile(join(w.allowed, '.env'), 'TOKEN=x\n');
  await writeFile(join(w.allowed, 'id_rsa'), 'key\n');
  await mkdir(join(w.allowed, 'dir'));
  await symlink(join(w.allowed, 'a.txt'), join(w.allowed, 'link'));
});
afterAll(() => w.cleanup());

const SHOWN = ['a.txt', 'b.txt', 'dir', 'link', 'ünïcode-名前.txt'];

describe.each(['legacy', 'modern'] as const)('listing results, %s era', (era) => {
  let app: App;
  let paged: App;
  let s: TestSession;
  let p: TestSession;
  beforeAll(async () => {
    app = await fsApp([w.allowed], [listDirectory, listDirectoryWithSizes]);
    paged = await fsApp([w.allowed], [listDirectory, listDirectoryWithSizes], { pageSize: 2 });
    s = await connect(app, { era });
    p = await connect(paged, { era });
  });
  afterAll(async () => {
    await s.close();
    await p.close();
    await app.close();
    await paged.close();
  });

  it('list_directory gives a count by default and the entries when asked, with the same text', async () => {
    const plain = await s.callTool('list_directory', { path: '.' });
    const full = await s.callTool('list_directory', { path: '.', structured: true });
    expect(plain.isError).toBeFalsy();
    expect(data(plain)).toEqual({ count: SHOWN.length });
    expect(textOf(full)).toBe(textOf(plain));
    expect(textOf(plain).split('\n').slice(0, SHOWN.length)).toEqual([
      '[FILE] a.txt',
      '[FILE] b.txt',
      '[DIR] dir',
      '[LINK] link',
      '[FILE] ünïcode-名前.txt',
    ]);
    expect(textOf(plain)).toMatch(/2 entries that usually hold secrets .* were left out/);
    expect(data(full)).toEqual({
      count: SHOWN.length,
      entries: [
        { name: 'a.txt', type: 'file' },
        { name: 'b.txt', type: 'file' },
        { name: 'dir', type: 'directory' },
        { name: 'link', type: 'symlink' },
        { name: 'ünïcode-名前.txt', type: 'file' },
      ],
    });
  });

  it('list_directory pages carry the count of their own entries and the cursor', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await p.callTool('list_directory', {
        path: '.',
        structured: true,
        ...(cursor ? { cursor } : {}),
      });
      const page = data(r);
      expect(page.count).toBe(page.entries?.length);
      names.push(...(page.entries ?? []).map((e) => e.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(SHOWN);
  });

  it('list_directory_with_sizes gives the summary by default and sized entries when asked', async () => {
    const plain = await s.callTool('list_directory_with_sizes', { path: '.' });
    expect(data(plain)).toEqual({ count: SHOWN.length, files: 3, directories: 1, totalBytes: 6 });
    expect(textOf(plain)).toContain('Total: 3 files, 1 directories');
    const bySize = await s.callTool('list_directory_with_sizes', {
      path: '.',
      sortBy: 'size',
      structured: true,
    });
    expect(data(bySize).entries).toEqual([
      { name: 'ünïcode-名前.txt', type: 'file', size: 3 },
      { name: 'b.txt', type: 'file', size: 2 },
      { name: 'a.txt', type: 'file', size: 1 },
      { name: 'dir', type: 'directory' },
      { name: 'link', type: 'symlink' },
    ]);
    expect(textOf(bySize)).not.toMatch(/^\[FILE\] (\.env|id_rsa)/m);
    expect(textOf(bySize)).toMatch(/2 entries that usually hold secrets/);
  });
});
