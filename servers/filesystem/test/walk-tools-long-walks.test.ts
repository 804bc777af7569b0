/**
 * The walking tools over a wide tree of 20 000 files, in both eras: progress while searching, and
 * cancellation that stops the walk on the server, not only in the client.
 */
import { rm } from 'node:fs/promises';
import { CancelledError } from '@mcpkit/core/progress';
import type { AnyTool, App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FsContext } from '../src/context.js';
import { fsApp, textOf } from './harness.js';
import { ensureContentWorker, fastScratch, makeWideTree } from './walk-support.js';
import { walkTools } from './walk-tools-kit.js';

/** How each tool's handler ended, last call first: a client that gives up sees none of this. */
const endings: { tool: string; outcome: Promise<unknown> }[] = [];

/** The tool with its handler's ending recorded: what it returned, or what it threw. */
function recorded(tool: AnyTool<FsContext>): AnyTool<FsContext> {
  return {
    ...tool,
    run(args, call) {
      const running = Promise.resolve(tool.run(args, call));
      endings.unshift({
        tool: tool.name,
        outcome: running.then(
          (result) => ({ result }),
          (error) => error,
        ),
      });
      return running;
    },
  };
}

// search_content runs its matching in the compiled worker.
beforeAll(ensureContentWorker);

describe.each(['legacy', 'modern'] as const)('long walks, %s era', (era) => {
  let root: string;
  let app: App;
  let s: TestSession;
  beforeAll(async () => {
    root = fastScratch('mcpkit-walk-tools-');
    makeWideTree(root, 100, 20_000);
    app = await fsApp([root], walkTools.map(recorded));
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
    'cancelling %s stops its handler with CancelledError, and the server answers on',
    async (tool) => {
      const args: Record<string, unknown> =
        tool === 'search_files'
          ? { path: root, pattern: 'nothing-matches' }
          : tool === 'directory_tree'
            ? { path: root, maxEntries: 50_000 }
            : { path: root, query: 'nothing-matches', timeoutMs: 30_000 };
      const controller = new AbortController();
      // Cancelled at its first progress report: the work is under way, whatever the machine's speed.
      const onprogress = () => controller.abort();
      await expect(s.callTool(tool, args, { signal: controller.signal, onprogress })).rejects.toThrow();
      // The client rejects on its own at the abort; the handler throwing CancelledError, rather than
      // returning the finished walk, shows the cancel reached the work and stopped it.
      const ending = endings[0];
      expect(ending?.tool).toBe(tool);
      expect(await ending?.outcome).toBeInstanceOf(CancelledError);
      const next = await s.callTool('list_directory', { path: root });
      expect(textOf(next)).toContain('[DIR] d0000');
    },
  );
});
