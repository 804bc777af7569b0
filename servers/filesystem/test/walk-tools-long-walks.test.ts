/**
 * The walking tools over a wide tree of 20 000 files, in both eras: progress while searching, and
 * cancellation that stops the walk within a second.
 */
import { rm } from 'node:fs/promises';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsApp, textOf } from './harness.js';
import { ensureContentWorker, fastScratch, makeWideTree } from './walk-support.js';
import { walkTools } from './walk-tools-kit.js';

// search_content runs its matching in the compiled worker.
beforeAll(ensureContentWorker);

describe.each(['legacy', 'modern'] as const)('long walks, %s era', (era) => {
  let root: string;
  let app: App;
  let s: TestSession;
  beforeAll(async () => {
    root = fastScratch('mcpkit-walk-tools-');
    makeWideTree(root, 100, 20_000);
    app = await fsApp([root], walkTools);
    s = await connect(app, { era });
  });
  afterAll(async () => {
    await s.close();
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('reports progress while searching', async () => {
    const seen: number[] = [];
    const r = await s.callTool(
      'search_files',
      { path: root, pattern: 'nothing-matches' },
      { onprogress: (n) => seen.push(n.progress) },
    );
    expect(textOf(r)).toBe('No matches found');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it.each(['search_files', 'directory_tree', 'search_content'])(
    'cancelling %s rejects within a second and the server answers on',
    async (tool) => {
      const args: Record<string, unknown> =
        tool === 'search_files'
          ? { path: root, pattern: 'nothing-matches' }
          : tool === 'directory_tree'
            ? { path: root, maxEntries: 50_000 }
            : { path: root, query: 'nothing-matches', timeoutMs: 30_000 };
      const controller = new AbortController();
      let abortedAt = 0;
      // Cancelled at its first progress report: the work is under way, whatever the machine's speed.
      const onprogress = () => {
        if (abortedAt > 0) return;
        abortedAt = Date.now();
        controller.abort();
      };
      await expect(s.callTool(tool, args, { signal: controller.signal, onprogress })).rejects.toThrow();
      expect(abortedAt).toBeGreaterThan(0);
      expect(Date.now() - abortedAt).toBeLessThan(1000);
      const next = await s.callTool('list_directory', { path: root });
      expect(textOf(next)).toContain('[DIR] d0000');
    },
  );
});
