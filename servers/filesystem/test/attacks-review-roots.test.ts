/**
 * The review attack corpus, roots and read-only: client roots never widen the configured ceiling (a
 * root outside, a parent of it or a link out allows nothing beyond it), and --read-only offers
 * nothing that writes.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { type Era, expectNoLeak, type World } from './attacks-review-kit.js';
import { treeHash, world } from './harness.js';

describe('review corpus: roots and read-only', () => {
  let w: World;
  let app: App;
  beforeAll(async () => {
    w = await world();
    writeFileSync(join(w.allowed, 'a.txt'), 'a\n');
    symlinkSync(w.outside, join(w.allowed, 'out'));
    app = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it.each([
      ['file:/// (everything)', () => ['file:///']],
      ['a parent of the ceiling', () => [w.base]],
      ['the ceiling plus outside', () => [w.allowed, w.outside]],
    ])('a client root that is %s narrows to the ceiling at most', async (_label, roots) => {
      const session = await connect(app, { era, roots: roots() });
      try {
        const listed = await session.callTool('list_allowed_directories');
        expect((listed.structuredContent as { directories: string[] }).directories).toEqual([w.allowed]);
        const read = await session.callTool('read_text_file', { path: join(w.outside, 'secret.txt') });
        expect(read.isError).toBe(true);
        expectNoLeak(w, read, [join(w.outside, 'secret.txt')]);
      } finally {
        await session.close();
      }
    });

    it.each([
      ['a link inside the ceiling to outside', () => [join(w.allowed, 'out')]],
      ['only outside', () => [w.outside]],
    ])('a client root that is %s allows nothing', async (_label, roots) => {
      const session = await connect(app, { era, roots: roots() });
      try {
        for (const path of [join(w.allowed, 'a.txt'), join(w.allowed, 'out', 'secret.txt')]) {
          const read = await session.callTool('read_text_file', { path });
          expect(read.isError).toBe(true);
          expectNoLeak(w, read, [path]);
        }
      } finally {
        await session.close();
      }
    });
  });

  it('--read-only offers no tool that writes, and refuses one called anyway', async () => {
    const ro = createFilesystemApp({ roots: await RootSet.create([w.allowed]), readOnly: true });
    for (const era of ['legacy', 'modern'] as const) {
      const session = await connect(ro, { era });
      try {
        const { tools } = await session.client.listTools();
        for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
        const before = await treeHash(w.allowed);
        const write = await session.client
          .callTool({
            name: 'write_file',
            arguments: { path: join(w.allowed, 'n.txt'), content: 'x', confirm: true },
          })
          .catch((e: unknown) => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));
        expect(write.isError).toBe(true);
        expect(await treeHash(w.allowed)).toBe(before);
      } finally {
        await session.close();
      }
    }
    await ro.close();
  });
});
