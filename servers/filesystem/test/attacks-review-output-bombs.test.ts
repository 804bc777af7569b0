/**
 * The review attack corpus, output bombs: a 10 MiB line, the same file 100 times, a hit on every
 * column and a tree 300 levels deep all stay within the output limit, in both eras.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import type { Era, World } from './attacks-review-kit.js';
import { textOf, world } from './harness.js';

describe('review corpus: output bombs', () => {
  const LIMIT = 64 * 1024;
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'line.txt'), 'x'.repeat(10 * 1024 * 1024));
    writeFileSync(join(w.allowed, 'min.js'), 'needle;'.repeat(280_000));
    let deep = w.allowed;
    for (let i = 0; i < 300; i++) deep = join(deep, 'x');
    mkdirSync(deep, { recursive: true });
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]), outputLimitBytes: LIMIT });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['a 10 MiB single line', 'read_text_file', () => ({ path: 'line.txt' })],
      [
        'the same 10 MiB file 100 times',
        'read_multiple_files',
        () => ({ paths: Array(100).fill('line.txt') }),
      ],
      [
        'a minified file with a hit on every column',
        'search_content',
        () => ({ path: '.', query: 'needle', contextLines: 10 }),
      ],
      [
        'a tree 300 levels deep',
        'directory_tree',
        () => ({ path: '.', maxDepth: 10_000, maxEntries: 50_000 }),
      ],
      ['search_files over the deep tree', 'search_files', () => ({ path: '.', pattern: '**/x' })],
    ])('%s (%s)', async (_label, tool, args) => {
      const session = await connect(app, { era });
      try {
        const result = await session.callTool(tool, args());
        const bytes =
          Buffer.byteLength(textOf(result)) +
          Buffer.byteLength(JSON.stringify(result.structuredContent ?? {}));
        expect(bytes).toBeLessThanOrEqual(2 * LIMIT);
        expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(LIMIT);
      } finally {
        await session.close();
      }
    });
  });
});
