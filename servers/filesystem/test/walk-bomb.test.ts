import { closeSync, openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryTree } from '../src/tools/directory-tree.js';
import { listDirectory } from '../src/tools/list-directory.js';
import { listDirectoryWithSizes } from '../src/tools/list-directory-with-sizes.js';
import { searchFiles } from '../src/tools/search-files.js';
import { fsApp, textOf } from './harness.js';
import { fastScratch } from './walk-support.js';

const ENTRIES = 200_000;
const LIMIT = 64 * 1024;

let root: string;
beforeAll(() => {
  root = fastScratch('mcpkit-bomb-');
  // One flat directory of 200k names: the listing itself is the bomb.
  for (let i = 0; i < ENTRIES; i++)
    closeSync(openSync(join(root, `entry-${String(i).padStart(6, '0')}.txt`), 'w'));
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }), 60_000);

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe.each(['legacy', 'modern'] as const)('a directory of 200k entries, %s era', (era) => {
  let app: App;
  let s: TestSession;
  beforeAll(async () => {
    // A page size far above what fits: the output budget, not the count, must end each page.
    app = await fsApp([root], [listDirectory, listDirectoryWithSizes, directoryTree, searchFiles], {
      pageSize: 100_000,
      outputLimitBytes: LIMIT,
    });
    s = await connect(app, { era });
  });
  afterAll(async () => {
    await s.close();
    await app.close();
  });

  it('list_directory stays within the output limit and continues exactly where it stopped', async () => {
    const first = await s.callTool('list_directory', { path: root, structured: true });
    const text = textOf(first);
    expect(bytes(text)).toBeLessThanOrEqual(LIMIT);
    expect(text).not.toContain('[truncated');
    const page = first.structuredContent as { entries: { name: string }[]; nextCursor: string };
    expect(page.entries.length).toBeGreaterThan(1000);
    expect(text).toContain(
      `More entries follow: call list_directory again with cursor "${page.nextCursor}".`,
    );
    const second = (
      await s.callTool('list_directory', { path: root, cursor: page.nextCursor, structured: true })
    ).structuredContent as {
      entries: { name: string }[];
    };
    const n = page.entries.length;
    expect(second.entries[0]?.name).toBe(`entry-${String(n).padStart(6, '0')}.txt`);
  });

  it('list_directory_with_sizes and search_files are bounded the same way', async () => {
    for (const [tool, args] of [
      ['list_directory_with_sizes', { path: root }],
      ['search_files', { path: root, pattern: '*.txt' }],
    ] as const) {
      const r = await s.callTool(tool, args);
      expect(bytes(textOf(r))).toBeLessThanOrEqual(LIMIT);
      expect(textOf(r)).toMatch(/call \w+ again with cursor "v1\./);
    }
  });

  it('directory_tree stops at the output limit and says how to narrow', async () => {
    const r = await s.callTool('directory_tree', { path: root, maxEntries: 50_000 });
    expect(bytes(textOf(r))).toBeLessThanOrEqual(LIMIT);
    expect(r.structuredContent).toMatchObject({ truncated: true });
    expect(textOf(r)).toMatch(/Truncated: showing the first \d+ entries because of the output size limit/);
    expect(textOf(r)).toMatch(/subdirectory/);
    const small = await s.callTool('directory_tree', { path: root });
    expect(small.structuredContent).toMatchObject({ entries: 2000, truncated: true });
  });
});
