/**
 * A stalled mount never stalls the server. One root is on an injected slow file system (the
 * operator's --slow-path, as for an NFS or FUSE mount the table cannot tell): while it stalls,
 * calls on the other root still answer, a stalled call ends with one sentence at its deadline and
 * leaves nothing behind, a cancel still ends it, no synchronous call ever touches the slow root,
 * and the calls waiting on it never hold more thread-pool threads than the guard's slots.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, textOf } from '@mcpkit/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { treeHash, world } from './harness.js';
import { type newLayer, release, stall, stalling, watchingSync } from './stall-layer.js';

const layer = vi.hoisted(() => ({}) as ReturnType<typeof newLayer>);
vi.mock('node:fs/promises', async (original) => {
  const { newLayer: make, stalling: wrap } = await import('./stall-layer.js');
  Object.assign(layer, make());
  return wrap(await original<Record<string, unknown>>(), layer);
});
vi.mock('node:fs', async (original) => {
  const { watchingSync: wrap } = await import('./stall-layer.js');
  return wrap(await original<Record<string, unknown>>(), layer);
});
void stalling;
void watchingSync;

const ERAS = ['legacy', 'modern'] as const;
const TIMEOUT_MS = 300;

describe('a stalled mount', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let slow: string;
  let apps: App[] = [];
  beforeAll(async () => {
    w = await world();
    slow = join(w.base, 'mount');
    await mkdir(join(slow, 'docs'), { recursive: true });
    await writeFile(join(slow, 'notes.txt'), 'on the mount\n');
    await writeFile(join(w.allowed, 'local.txt'), 'on the local disk\n');
    layer.dir = slow;
    slowPaths.add(slow);
  });
  afterEach(async () => {
    release(layer);
    for (const app of apps) await app.close();
    apps = [];
  });
  afterAll(async () => {
    slowPaths.clearAdded();
    await w.cleanup();
  });

  const serve = async (slots: number, timeoutMs = TIMEOUT_MS) => {
    const roots = await RootSet.create([w.allowed, slow]);
    const app = createFilesystemApp({ roots, stallGuard: new StallGuard({ timeoutMs, slots }) });
    apps.push(app);
    return app;
  };

  describe.each(ERAS)('%s', (era) => {
    it('answers the other root while a call on the stalled one waits', async () => {
      // A deadline far beyond the test: the stuck call can only end by its cancel.
      const session = await connect(await serve(2, 600_000), { era });
      stall(layer);
      const controller = new AbortController();
      let settled = false;
      const stuck = session
        .callTool('read_text_file', { path: join(slow, 'notes.txt') }, { signal: controller.signal })
        .finally(() => {
          settled = true;
        });
      await layer.held;
      const local = await session.callTool('read_text_file', { path: join(w.allowed, 'local.txt') });
      expect(textOf(local)).toContain('on the local disk');
      const listing = await session.callTool('list_directory_with_sizes', { path: w.allowed });
      expect(textOf(listing)).toContain('local.txt');
      expect(settled).toBe(false);

      // Ends the stuck call. The client rejects on its own abort, so this shows nothing of the
      // server's side; that a cancel reaches the work is the write test's check below.
      controller.abort();
      await expect(stuck).rejects.toThrow();
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });

    it('ends a stalled call at its deadline with one sentence that names no host path', async () => {
      const session = await connect(await serve(2), { era });
      stall(layer);
      const answer = await session.callTool('read_text_file', { path: join(slow, 'notes.txt') });
      expect(answer.isError).toBe(true);
      const text = textOf(answer);
      expect(text).toMatch(
        /^"mount\/notes\.txt" did not answer within 0\.3 s: .* may be stalled; try again later[^.]*\.$/,
      );
      expect(text).not.toContain(w.base);
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });

    it('lets the calls on the stalled root hold no more threads than its slots, and each ends in a sentence', async () => {
      const session = await connect(await serve(2), { era });
      stall(layer);
      const calls = [
        session.callTool('read_text_file', { path: join(slow, 'notes.txt') }),
        session.callTool('get_file_info', { path: join(slow, 'notes.txt') }),
        session.callTool('list_directory_with_sizes', { path: slow }),
        session.callTool('search_files', { path: slow, pattern: '**/*.txt' }),
        session.callTool('directory_tree', { path: slow }),
        session.callTool('read_multiple_files', { paths: [join(slow, 'notes.txt')] }),
      ];
      await layer.held;
      const local = await session.callTool('get_file_info', { path: join(w.allowed, 'local.txt') });
      expect(local.isError).toBeFalsy();

      for (const answer of await Promise.all(calls)) {
        const text = textOf(answer);
        // Each is given up as a whole, read_multiple_files included: the guard answers for the call.
        expect(text).toMatch(/"mount[^"]*" (did not answer|could not be reached) within 0\.3 s/);
      }
      expect(layer.maxInFlight).toBeLessThanOrEqual(2);
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });

    it('lists resources and completes paths with the stalled root left out, not waited for', async () => {
      const session = await connect(await serve(2), { era });
      stall(layer);
      const listed = await session.client.listResources();
      const names = listed.resources.map((resource) => resource.name);
      expect(names).toContain('local.txt');
      expect(names).not.toContain('notes.txt');
      const ref = { type: 'ref/resource' as const, uri: 'file://{+path}' };
      const stalled = await session.client.complete({ ref, argument: { name: 'path', value: `${slow}/` } });
      expect(stalled.completion.values).toEqual([]);
      const local = await session.client.complete({
        ref,
        argument: { name: 'path', value: `${w.allowed}/` },
      });
      expect(local.completion.values).toContain(`${w.allowed}/local.txt`);
      await session.close();
    });

    it('puts a walk that crosses onto the stalled mount below a local root under the guard', async () => {
      const roots = await RootSet.create([w.base]);
      const app = createFilesystemApp({
        roots,
        stallGuard: new StallGuard({ timeoutMs: TIMEOUT_MS, slots: 2 }),
      });
      apps.push(app);
      const session = await connect(app, { era });
      stall(layer);
      const tree = session.callTool('directory_tree', { path: w.base });
      await layer.held;
      const local = await session.callTool('read_text_file', { path: join(w.allowed, 'local.txt') });
      expect(textOf(local)).toContain('on the local disk');
      const answer = await tree;
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(/^"mount" did not answer within 0\.3 s/);
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });

    it('commits nothing when a write on the stalled root is given up, or cancelled', async () => {
      const session = await connect(await serve(1), { era });
      const before = await treeHash(w.base);
      // With one slot, a call on the slow root runs only once the call before it has really ended.
      const drain = async () => {
        release(layer);
        const after = await session.callTool('get_file_info', { path: join(slow, 'notes.txt') });
        expect(after.isError).toBeFalsy();
      };

      stall(layer);
      const givenUp = await session.callTool('write_file', { path: join(slow, 'late.txt'), content: 'late' });
      expect(textOf(givenUp)).toMatch(/^"mount\/late\.txt" did not answer within 0\.3 s/);
      await drain();
      expect(await treeHash(w.base)).toBe(before);

      stall(layer);
      const controller = new AbortController();
      const cancelled = session.callTool(
        'write_file',
        { path: join(slow, 'notes.txt'), content: 'replaced' },
        { signal: controller.signal },
      );
      await layer.held;
      controller.abort();
      await expect(cancelled).rejects.toThrow();
      const local = await session.callTool('read_text_file', { path: join(w.allowed, 'local.txt') });
      expect(textOf(local)).toContain('on the local disk');
      await drain();
      expect(await treeHash(w.base)).toBe(before);
      expect(layer.syncCalls).toEqual([]);
      await session.close();
    });
  });
});
