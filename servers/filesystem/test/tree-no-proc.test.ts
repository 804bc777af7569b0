/**
 * Where `/proc/self/fd` is missing (macOS, Linux without /proc) a tree walk can only name
 * directories by path. A source directory swapped for a link to the outside while a move copies
 * it, or while a delete counts it, is then caught by looking at the directory again after it was
 * listed (device and inode): the move fails with nothing from outside brought in, the delete is
 * refused before its question. Here `/proc/self/fd` is made to look missing (see `pinned.ts`,
 * which asks once), and each swap runs right before the walk's own listing of that directory.
 */
import { renameSync, symlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hasProcFd } from '../src/fs/pinned.js';
import { world } from './harness.js';
import { asker, ERAS, expectError } from './io-kit.js';
import { realHash as hash, realFs as real, type TreeLayer } from './tree-fs-layer.js';
import { treeSession } from './tree-kit.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => {
  const { mockTreeFs } = await import('./tree-fs-layer.js');
  const fs = await mockTreeFs<typeof import('node:fs') & { default: typeof import('node:fs') }>(
    original,
    layer,
  );
  const existsSync = (path: Parameters<typeof fs.existsSync>[0]) =>
    path !== '/proc/self/fd' && fs.existsSync(path);
  return { ...fs, existsSync, default: { ...fs.default, existsSync } };
});

describe.each(ERAS)('a tree walked by path, without /proc/self/fd, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let sub: string;
  let session: TestSession;
  let ask: ReturnType<typeof asker>;
  let close: () => Promise<void>;

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    sub = join(top, 'sub');
    await mkdir(sub, { recursive: true });
    await writeFile(join(top, 'a.txt'), 'a');
    await writeFile(join(sub, 'x.txt'), 'x');
    for (let i = 0; i < 5; i++) await writeFile(join(w.outside, `more${i}.txt`), 'outside');
    ask = asker();
    ({ session, close } = await treeSession(w, era, layer, ask));
  });
  afterEach(async () => {
    await close();
    await w.cleanup();
  });

  /** Swaps `sub` for a link to the outside right before the `nth` listing of it (`readdir` or `opendir`). */
  const swapAtListing = (nth: number) => {
    let seen = 0;
    layer.before = (call, at) => {
      if ((call !== 'readdir' && call !== 'opendir') || at !== sub || ++seen < nth) return;
      layer.before = undefined;
      renameSync(sub, `${sub}_old`);
      symlinkSync(w.outside, sub);
    };
  };

  it('runs without /proc/self/fd', () => {
    expect(hasProcFd()).toBe(false);
  });

  it('fails a move whose source directory is swapped for a link as the copy lists it', async () => {
    layer.crossing.add(top);
    const outsideBefore = await hash(w.outside);
    // The first listing is the walk before the copy, the second the copy's own.
    swapAtListing(2);
    const answer = await session.callTool('move_file', {
      source: top,
      destination: join(w.allowed, 'moved'),
    });
    expect(expectError(answer, w, undefined, [top])).toMatch(
      /^"allowed\/top\/sub" changed on disk while it was being used/,
    );
    expect(layer.before).toBeUndefined();
    const fs = await real();
    expect(await fs.readdir(w.allowed)).toEqual(['top']);
    expect(await fs.readdir(`${sub}_old`)).toEqual(['x.txt']);
    expect(await hash(w.outside)).toBe(outsideBefore);
  });

  it('refuses a delete whose directory is swapped for a link as it is counted, before asking', async () => {
    const outsideBefore = await hash(w.outside);
    swapAtListing(1);
    const answer = await session.callTool('delete_file', { path: top, recursive: true });
    expect(expectError(answer, w, undefined, [top])).toMatch(
      /^"allowed\/top\/sub" changed on disk while it was being used/,
    );
    expect(ask.asked).toEqual([]);
    expect(await hash(w.outside)).toBe(outsideBefore);
  });
});
