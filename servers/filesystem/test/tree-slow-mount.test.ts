/**
 * A tree that crosses onto a stalled mount below the named directory never stalls the call: the
 * count before a delete's question, the delete itself, and the copy of a move between file
 * systems each join the call's stall guard when they reach the slow directory, answer with the
 * guard's sentence at its deadline, and, once the mount answers again, change nothing more. No
 * synchronous call ever touches the slow directory. In both eras.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet, StallGuard, slowPaths } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { world } from './harness.js';
import { asker, ERAS } from './io-kit.js';
import {
  realHash as hash,
  realFs,
  releaseTree,
  resetTree,
  stallTree,
  type TreeLayer,
} from './tree-fs-layer.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

const STALLED = /^"[^"]*top\/slow" did not answer within 0\.3 s: .* may be stalled; try again later[^.]*\.$/;

describe.each(ERAS)('a tree reaching a stalled mount, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let slow: string;
  let app: App;
  let session: TestSession;
  let ask: ReturnType<typeof asker>;

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    slow = join(top, 'slow');
    await mkdir(join(top, 'b'), { recursive: true });
    await mkdir(join(slow, 'deep'), { recursive: true });
    for (const [path, text] of [
      ['a.txt', 'a'],
      ['b/c.txt', 'c'],
      ['z.txt', 'z'],
      ['slow/x.txt', 'x'],
      ['slow/deep/y.txt', 'y'],
    ] as const)
      await writeFile(join(top, path), text);
    layer.dir = slow;
    slowPaths.add(slow);
    // One slot: a call on the slow directory runs only once the call before it has really ended.
    const roots = await RootSet.create([w.allowed]);
    app = createFilesystemApp({ roots, stallGuard: new StallGuard({ timeoutMs: 300, slots: 1 }) });
    ask = asker();
    session = await connect(app, { era, elicitation: ask.elicitation });
  });
  afterEach(async () => {
    resetTree(layer);
    slowPaths.clearAdded();
    await session.close();
    await app.close();
    await w.cleanup();
  });

  /** Lets the mount answer, then waits until the given-up call's work has ended (it held the slot). */
  const drain = async () => {
    releaseTree(layer);
    const after = await session.callTool('get_file_info', { path: join(slow, 'x.txt') });
    expect(after.isError, textOf(after)).toBeFalsy();
  };

  it('gives up a delete whose count reaches the stalled mount, before asking, and deletes nothing', async () => {
    const before = await hash(w.base);
    stallTree(layer);
    const answer = await session.callTool('delete_file', { path: top, recursive: true });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(STALLED);
    expect(textOf(answer)).not.toContain(w.base);
    expect(ask.asked).toEqual([]);
    await drain();
    expect(await hash(w.base)).toBe(before);
    expect(layer.syncCalls).toEqual([]);
  });

  it('gives up a delete that stalls on the mount while removing, and removes nothing more after', async () => {
    const slowBefore = await hash(slow);
    const outsideBefore = await hash(w.outside);
    // The count lists with opendir; only the removal's readdir stalls. The slow directory comes
    // last in its parent, so everything else there is gone by the time the removal reaches it.
    layer.last.add('slow');
    stallTree(layer, ['readdir']);
    const answer = await session.callTool('delete_file', { path: top, recursive: true });
    expect(textOf(answer)).toMatch(STALLED);
    expect(ask.asked).toHaveLength(1);
    const atAnswer = await hash(w.base);
    // It had really started: all but the stalled directory was gone when it was given up.
    const real = await realFs();
    expect(await real.readdir(top)).toEqual(['slow']);
    await drain();
    expect(await hash(w.base)).toBe(atAnswer);
    expect(await hash(slow)).toBe(slowBefore);
    expect(await hash(w.outside)).toBe(outsideBefore);
    expect(layer.syncCalls).toEqual([]);
  });

  it('gives up a move between file systems whose copy reaches the stalled mount, and leaves both places as they were', async () => {
    const before = await hash(w.base);
    layer.crossing.add(top);
    stallTree(layer);
    const answer = await session.callTool('move_file', {
      source: top,
      destination: join(w.allowed, 'moved'),
    });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(STALLED);
    await drain();
    expect(await hash(w.base)).toBe(before);
    expect(layer.syncCalls).toEqual([]);
  });
});
