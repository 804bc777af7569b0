/**
 * A move between file systems copies the tree through descriptors: a subdirectory, or a file,
 * swapped for a symbolic link to the outside while the copy runs fails the move with one sentence,
 * brings nothing from outside in, changes nothing outside and leaves no half copy behind. The
 * swap is made deterministic by running it right before the copy's own call on that entry (see
 * `tree-fs-layer.ts`); the move is made to cross file systems by an EXDEV from the first rename.
 */
import { renameSync, symlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { world } from './harness.js';
import { ERAS, expectError, ioApp } from './io-kit.js';
import { type newTreeLayer, realTreeHash, resetTree } from './tree-fs-layer.js';

const layer = vi.hoisted(() => ({}) as ReturnType<typeof newTreeLayer>);
vi.mock('node:fs/promises', async (original) => {
  const { newTreeLayer: make, treePromises } = await import('./tree-fs-layer.js');
  Object.assign(layer, make());
  const fs = await vi.importActual<typeof import('node:fs')>('node:fs');
  return treePromises(await original<Record<string, unknown>>(), fs, layer);
});
vi.mock('node:fs', async (original) => {
  const { treeFs } = await import('./tree-fs-layer.js');
  return treeFs(await original<Record<string, unknown>>(), layer);
});

const real = () => vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');

/** Every file content under `dir`, read without the layer. */
async function contents(dir: string): Promise<string> {
  const fs = await real();
  let all = '';
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) all += await fs.readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return all;
}

describe.each(ERAS)('a tree swapped while a move copies it, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let top: string;
  let session: TestSession;
  let close: () => Promise<void>;

  beforeEach(async () => {
    w = await world();
    top = join(w.allowed, 'top');
    await mkdir(join(top, 'sub'), { recursive: true });
    await writeFile(join(top, 'a.txt'), 'a');
    await writeFile(join(top, 'sub', 'x.txt'), 'x');
    layer.crossing.add(top);
    const app = await ioApp([w.allowed]);
    session = await connect(app, { era });
    close = async () => {
      await session.close();
      await app.close();
    };
  });
  afterEach(async () => {
    resetTree(layer);
    await close();
    await w.cleanup();
  });

  /** Runs `swap` once, right before the first `name` call on `path`. */
  const armSwap = (name: string, path: string, swap: () => void) => {
    layer.before = (call, at) => {
      if (call !== name || at !== path) return;
      layer.before = undefined;
      swap();
    };
  };

  const expectRefused = async (outsideBefore: string) => {
    const answer = await session.callTool('move_file', {
      source: top,
      destination: join(w.allowed, 'moved'),
    });
    expect(expectError(answer, w, undefined, [top])).toMatch(/changed on disk while it was being used/);
    expect(layer.before).toBeUndefined();
    expect(await (await real()).readdir(w.allowed)).toEqual(['top']);
    expect(await contents(w.allowed)).not.toContain('top secret');
    expect(await realTreeHash(await real(), w.outside)).toBe(outsideBefore);
  };

  it('fails when a subdirectory is swapped for a link to the outside before it is entered', async () => {
    const outsideBefore = await realTreeHash(await real(), w.outside);
    const sub = join(top, 'sub');
    armSwap('open', sub, () => {
      renameSync(sub, `${sub}_old`);
      symlinkSync(w.outside, sub);
    });
    await expectRefused(outsideBefore);
  });

  it('fails when a file is swapped for a link to a secret before it is read', async () => {
    const outsideBefore = await realTreeHash(await real(), w.outside);
    const file = join(top, 'a.txt');
    armSwap('open', file, () => {
      renameSync(file, `${file}_old`);
      symlinkSync(join(w.outside, 'secret.txt'), file);
    });
    await expectRefused(outsideBefore);
  });
});
