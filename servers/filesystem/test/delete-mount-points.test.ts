/**
 * A recursive delete never crosses onto another mount, and a move between file systems never
 * copies one along. Mounting needs root, so here a subdirectory is made to look like a mount point
 * the way the walk sees one: its `lstat` answers with another device (see `tree-fs-layer.ts`);
 * `tree-real-mounts.test.ts` does it with real mounts where the machine allows. The delete is
 * refused before the user is asked and before anything is deleted; the removal, for a tree too big
 * to count first, stops in the directory that holds the mount point before removing anything
 * there. Every answer names the mount point as the user knows it, never a host path.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withParentDir } from '../src/fs/pinned.js';
import { removeTree } from '../src/fs/remove-tree.js';
import { world } from './harness.js';
import { asker, ERAS, expectError, ok } from './io-kit.js';
import { realHash as hash, realFs, resetTree, type TreeLayer } from './tree-fs-layer.js';
import { treeSession } from './tree-kit.js';

const layer = vi.hoisted(() => ({}) as TreeLayer);
vi.mock('node:fs/promises', async (original) =>
  (await import('./tree-fs-layer.js')).mockTreePromises(original, layer),
);
vi.mock('node:fs', async (original) => (await import('./tree-fs-layer.js')).mockTreeFs(original, layer));

/** top/{a.txt, z.txt, mid/{f00…f09.txt, mnt/{inside.txt, sub/deep.txt}}}; mid/mnt looks mounted. */
async function makeTree(base: string): Promise<{ top: string; mid: string; mnt: string }> {
  const top = join(base, 'top');
  const mid = join(top, 'mid');
  const mnt = join(mid, 'mnt');
  await mkdir(join(mnt, 'sub'), { recursive: true });
  await writeFile(join(top, 'a.txt'), 'a');
  await writeFile(join(top, 'z.txt'), 'z');
  for (let i = 0; i < 10; i++) await writeFile(join(mid, `f0${i}.txt`), `${i}`);
  await writeFile(join(mnt, 'inside.txt'), 'on the other file system');
  await writeFile(join(mnt, 'sub', 'deep.txt'), 'deeper');
  layer.mounts.add(mnt);
  return { top, mid, mnt };
}

// The made-up mount is not in the mount table: to the walk it looks like a btrfs subvolume.
const REFUSED =
  /^Nothing was deleted: "allowed\/top\/mid\/mnt" is a mount point or a btrfs subvolume \(another file system inside "allowed\/top"\), which a recursive delete does not cross; delete what is inside it separately\.$/;

describe.each(ERAS)('mount points below a tree, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let tree: Awaited<ReturnType<typeof makeTree>>;
  let session: TestSession;
  let close: () => Promise<void>;
  let ask: ReturnType<typeof asker>;

  beforeEach(async () => {
    w = await world();
    tree = await makeTree(w.allowed);
    ask = asker();
    ({ session, close } = await treeSession(w, era, layer, ask));
  });
  afterEach(async () => {
    await close();
    await w.cleanup();
  });

  it('refuses a recursive delete that would cross a mount point, before asking and before deleting anything', async () => {
    const before = await hash(w.base);
    const answer = await session.callTool('delete_file', { path: tree.top, recursive: true });
    expect(expectError(answer, w, undefined, [tree.top])).toMatch(REFUSED);
    expect(ask.asked).toEqual([]);
    expect(await hash(w.base)).toBe(before);
  });

  it('still deletes inside the mount point, or a tree beside it, when asked to separately', async () => {
    ok(await session.callTool('delete_file', { path: join(tree.mnt, 'sub'), recursive: true }));
    ok(await session.callTool('delete_file', { path: join(tree.mnt, 'inside.txt') }));
    await mkdir(join(tree.mid, 'plain', 'nested'), { recursive: true });
    ok(await session.callTool('delete_file', { path: join(tree.mid, 'plain'), recursive: true }));
    const real = await realFs();
    expect(await real.readdir(tree.mnt)).toEqual([]);
    expect((await real.readdir(tree.mid)).sort()).toContain('mnt');
    expect(await real.readdir(tree.mid)).not.toContain('plain');
  });

  it('refuses to move a tree holding a mount point to another file system, leaving both places as they were', async () => {
    layer.crossing.add(tree.top);
    const before = await hash(w.base);
    const answer = await session.callTool('move_file', {
      source: tree.top,
      destination: join(w.allowed, 'moved'),
    });
    expect(expectError(answer, w, undefined, [tree.top])).toMatch(
      /^Nothing was moved: "allowed\/top\/mid\/mnt" is a mount point or a btrfs subvolume \(another file system inside "allowed\/top"\), which a move to another file system does not copy; move what is inside it separately\.$/,
    );
    expect(await hash(w.base)).toBe(before);
  });

  it('refuses to delete or move a mount point itself, before asking, changing nothing', async () => {
    const before = await hash(w.base);
    const deleted = await session.callTool('delete_file', { path: tree.mnt, recursive: true });
    expect(expectError(deleted, w, undefined, [tree.mnt])).toBe(
      'Nothing was deleted: "allowed/top/mid/mnt" is a mount point or a btrfs subvolume, which delete_file does not empty; delete what is inside it instead.',
    );
    layer.crossing.add(tree.mnt);
    const moved = await session.callTool('move_file', {
      source: tree.mnt,
      destination: join(w.allowed, 'moved'),
    });
    expect(expectError(moved, w, undefined, [tree.mnt])).toBe(
      'Nothing was moved: "allowed/top/mid/mnt" is a mount point or a btrfs subvolume, which a move to another file system does not copy and empty; move what is inside it instead.',
    );
    expect(ask.asked).toEqual([]);
    expect(await hash(w.base)).toBe(before);
  });

  it('stops with the mount point named when a directory is mounted on while it is deleted', async () => {
    layer.mounts.clear();
    // The removal of mid (emptied by then) meets a mount made after every check.
    layer.before = (call, at) => {
      if (call === 'rmdir' && at === tree.mid) throw Object.assign(new Error('EBUSY'), { code: 'EBUSY' });
    };
    const answer = await session.callTool('delete_file', { path: tree.top, recursive: true });
    expect(expectError(answer, w, undefined, [tree.top])).toBe(
      'The delete stopped because "allowed/top/mid" became a mount point while it was being deleted: what it had reached is deleted and the rest is kept; unmount it, or delete what is inside it separately.',
    );
    expect(ask.asked).toHaveLength(1);
  });

  it('moves a tree without mount points to another file system whole', async () => {
    layer.mounts.clear();
    layer.crossing.add(tree.top);
    const before = await hash(tree.top);
    ok(await session.callTool('move_file', { source: tree.top, destination: join(w.allowed, 'moved') }));
    const real = await realFs();
    expect((await real.readdir(w.allowed)).sort()).toEqual(['moved']);
    // The same entries, modes and contents, under the new name.
    await real.rename(join(w.allowed, 'moved'), tree.top);
    expect(await hash(tree.top)).toBe(before);
  });
});

describe('the removal itself, for a tree it did not count first', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(async () => {
    resetTree(layer);
    await w.cleanup();
  });

  const remove = (top: string) =>
    withParentDir(top, 'allowed/top', (dir, name) => removeTree(dir, name, { display: 'allowed/top' }));

  it('stops in the directory that holds the mount point before removing anything there', async () => {
    const tree = await makeTree(w.allowed);
    const midBefore = await hash(tree.mid);
    // mid is reached last, so the files beside it are removed first, and mnt last inside mid.
    layer.last.add('mid');
    layer.last.add('mnt');
    await expect(remove(tree.top)).rejects.toThrow(
      /^The delete stopped at "allowed\/top\/mid\/mnt", a mount point or a btrfs subvolume \(another file system inside "allowed\/top"\) that a recursive delete does not cross: what it had reached is deleted and the rest is kept; delete what is inside it separately\.$/,
    );
    const real = await realFs();
    expect(await real.readdir(tree.top)).toEqual(['mid']);
    expect(await hash(tree.mid)).toBe(midBefore);
  });

  it('says nothing was deleted when the mount point is met first', async () => {
    const tree = await makeTree(w.allowed);
    const before = await hash(tree.top);
    // mid comes first, and inside it mnt is seen before anything there goes.
    layer.last.add('a.txt');
    layer.last.add('z.txt');
    await expect(remove(tree.top)).rejects.toThrow(REFUSED);
    expect(await hash(tree.top)).toBe(before);
  });
});
