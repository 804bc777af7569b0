/**
 * Once a move between file systems has renamed its copy into place, the source is removed whatever
 * the client cancels: stopping then would leave half the tree in each place. The call's stall
 * deadline (a sentence from the stall guard, not the client's cancel) still stops it. The cancel
 * (or the deadline) is made to come right as the removal of the source begins (see
 * `tree-fs-layer.ts`), and the move is made to cross file systems by an EXDEV from the first rename.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { moveEntry } from '../src/fs/transfer.js';
import { world } from './harness.js';
import { realFs as real, realHash, resetTree, type TreeLayer } from './tree-fs-layer.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

describe('a move between file systems once its copy is in place', () => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let moved: string;
  let controller: AbortController;

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    moved = join(w.allowed, 'moved');
    await mkdir(join(top, 'sub'), { recursive: true });
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'sub/x.txt']) await writeFile(join(top, name), name);
    layer.crossing.add(top);
    controller = new AbortController();
  });
  afterEach(async () => {
    resetTree(layer);
    await w.cleanup();
  });

  /** Aborts the call with `reason` right before the first file of the source is removed. */
  const abortAtRemoval = (reason?: unknown) => {
    layer.before = (call, at) => {
      if (call !== 'unlink' || !at.startsWith(`${top}/`)) return;
      layer.before = undefined;
      controller.abort(reason);
    };
  };

  const move = async () =>
    moveEntry(
      { real: top, display: 'allowed/top', stats: await lstat(top) },
      { real: moved, display: 'allowed/moved' },
      { signal: controller.signal },
    );

  it('finishes removing the source when the call is cancelled, and says the cancel was not obeyed', async () => {
    const before = await realHash(top);
    const outside = await realHash(w.outside);
    abortAtRemoval();
    const outcome = await move();
    expect(controller.signal.aborted).toBe(true);
    expect(outcome).toEqual({ kept: { count: 0, shown: [] }, cancelIgnored: true });
    const fs = await real();
    expect(await fs.readdir(w.allowed)).toEqual(['moved']);
    await fs.rename(moved, top);
    expect(await realHash(top)).toBe(before);
    expect(await realHash(w.outside)).toBe(outside);
  });

  it('still stops at the stall deadline, keeping what it had not removed', async () => {
    abortAtRemoval(new UserError('"allowed/top" did not answer within 0.3 s.'));
    await expect(move()).rejects.toThrow();
    const fs = await real();
    expect((await fs.readdir(w.allowed)).sort()).toEqual(['moved', 'top']);
    expect((await fs.readdir(top)).length).toBeGreaterThan(0);
    expect((await fs.readdir(moved)).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'sub']);
  });
});
