/**
 * The mount-point rules of `delete-mount-points.test.ts` against real mounts: a tmpfs (another
 * device) and a bind mount (the same device, known only from the mount table) below the deleted
 * directory, and a move onto a tmpfs, which really crosses file systems. Mounting needs root and a
 * kernel that lets this process mount; elsewhere every test here is skipped, saying why.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import {
  chmod,
  lstat,
  lutimes,
  mkdir,
  readdir,
  readFile,
  readlink,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestSession } from '@mcpkit/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeHash, world } from './harness.js';
import { asker, ERAS, expectError, ok } from './io-kit.js';
import { treeSession } from './tree-kit.js';

const SKIP_REASON = 'needs root on Linux and a kernel that lets this process mount tmpfs and bind mounts';

/** Whether this process can mount: tried once, on a scratch directory. */
const mountable = ((): boolean => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmdirSync(dir);
  }
})();

if (!mountable) console.log(`tree-real-mounts: skipped, ${SKIP_REASON}.`);

const WHEN = new Date('2024-05-06T07:08:09Z');

describe.each(ERAS)('real mounts below a tree, %s era', (era) => {
  let w: Awaited<ReturnType<typeof world>>;
  let session: TestSession;
  let close: () => Promise<void>;
  let ask: ReturnType<typeof asker>;
  const mounted: string[] = [];

  const mount = (args: string[], at: string) => {
    execFileSync('mount', [...args, at], { stdio: 'ignore' });
    mounted.push(at);
  };
  const tmpfs = async (at: string) => {
    await mkdir(at, { recursive: true });
    mount(['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs'], at);
  };

  beforeEach(async (ctx) => {
    ctx.skip(!mountable, SKIP_REASON);
    w = await world();
    ask = asker();
    ({ session, close } = await treeSession(w, era, undefined, ask));
  });
  afterEach(async () => {
    if (!mountable) return;
    for (const at of mounted.splice(0).reverse()) execFileSync('umount', ['-l', at], { stdio: 'ignore' });
    await close();
    await w.cleanup();
  });

  it('refuses to delete a tree with a tmpfs mounted inside, and deletes nothing', async () => {
    const top = join(w.allowed, 'top');
    await mkdir(top);
    await writeFile(join(top, 'a.txt'), 'a');
    await tmpfs(join(top, 'disk'));
    await writeFile(join(top, 'disk', 'inside.txt'), 'on the tmpfs');
    const before = await treeHash(w.base);
    const text = expectError(
      await session.callTool('delete_file', { path: top, recursive: true }),
      w,
      undefined,
      [top],
    );
    expect(text).toMatch(
      /^Nothing was deleted: "allowed\/top\/disk" is a mount point \(another file system inside "allowed\/top"\)/,
    );
    expect(ask.asked).toEqual([]);
    expect(await treeHash(w.base)).toBe(before);
  });

  it('refuses to delete a tree with a bind mount of another directory inside, though it is on the same device', async () => {
    const top = join(w.allowed, 'top');
    const shared = join(w.outside, 'shared');
    await mkdir(join(top, 'bound'), { recursive: true });
    await mkdir(shared);
    await writeFile(join(shared, 'keep.txt'), 'outside, bound in');
    mount(['--bind', shared], join(top, 'bound'));
    expect((await lstat(join(top, 'bound'))).dev).toBe((await lstat(top)).dev);
    const before = await treeHash(w.base);
    const text = expectError(
      await session.callTool('delete_file', { path: top, recursive: true }),
      w,
      undefined,
      [top],
    );
    expect(text).toMatch(/^Nothing was deleted: "allowed\/top\/bound" is a mount point/);
    expect(await treeHash(w.base)).toBe(before);
  });

  it('refuses to delete a mount point itself, before asking, and empties nothing', async () => {
    const disk = join(w.allowed, 'disk');
    await tmpfs(disk);
    await mkdir(join(disk, 'sub'));
    await writeFile(join(disk, 'sub', 'x.txt'), 'x');
    const before = await treeHash(w.base);
    const text = expectError(
      await session.callTool('delete_file', { path: disk, recursive: true }),
      w,
      undefined,
      [disk],
    );
    expect(text).toBe(
      'Nothing was deleted: "allowed/disk" is a mount point, which delete_file does not empty; unmount it first, or delete what is inside it instead.',
    );
    expect(ask.asked).toEqual([]);
    expect(await treeHash(w.base)).toBe(before);
  });

  it('refuses to move a mount point itself, which would copy and empty a whole file system', async () => {
    const disk = join(w.allowed, 'disk');
    await tmpfs(disk);
    await writeFile(join(disk, 'data.txt'), 'on the tmpfs');
    await tmpfs(join(w.allowed, 'fast'));
    const before = await treeHash(w.base);
    // Beside it, the rename fails EBUSY; onto another file system, EXDEV, and the copy would begin.
    for (const destination of [join(w.allowed, 'moved'), join(w.allowed, 'fast', 'moved')]) {
      const text = expectError(
        await session.callTool('move_file', { source: disk, destination }),
        w,
        undefined,
        [disk],
      );
      expect(text).toBe(
        'Nothing was moved: "allowed/disk" is a mount point, which a move to another file system does not copy and empty; unmount it first, or move what is inside it instead.',
      );
    }
    expect(await treeHash(w.base)).toBe(before);
  });

  it('moves a tree onto another file system with its modes, times, links and contents', async () => {
    const source = join(w.allowed, 'src');
    await mkdir(join(source, 'sub'), { recursive: true });
    await writeFile(join(source, 'run.sh'), '#!/bin/sh\n', { mode: 0o750 });
    await writeFile(join(source, 'sub', 'data.bin'), Buffer.alloc(300_000, 7));
    await symlink('../run.sh', join(source, 'sub', 'link'));
    await chmod(join(source, 'sub'), 0o710);
    for (const path of ['run.sh', 'sub/data.bin', 'sub', '']) await utimes(join(source, path), WHEN, WHEN);
    await lutimes(join(source, 'sub', 'link'), WHEN, WHEN);
    const before = await describeTree(source);
    await tmpfs(join(w.allowed, 'fast'));
    const target = join(w.allowed, 'fast', 'moved');
    ok(await session.callTool('move_file', { source, destination: target }));
    expect(await describeTree(target)).toEqual(before);
    expect(await readdir(w.allowed)).toEqual(['fast']);
    expect(await readdir(join(w.allowed, 'fast'))).toEqual(['moved']);
  });

  it('refuses to move a tree with a mount inside onto another file system, changing nothing', async () => {
    const source = join(w.allowed, 'src');
    await mkdir(source);
    await writeFile(join(source, 'a.txt'), 'a');
    await tmpfs(join(source, 'disk'));
    await writeFile(join(source, 'disk', 'inside.txt'), 'on the tmpfs');
    await tmpfs(join(w.allowed, 'fast'));
    const before = await treeHash(w.base);
    const answer = await session.callTool('move_file', {
      source,
      destination: join(w.allowed, 'fast', 'moved'),
    });
    expect(expectError(answer, w, undefined, [source])).toMatch(
      /^Nothing was moved: "allowed\/src\/disk" is a mount point/,
    );
    expect(await treeHash(w.base)).toBe(before);
  });
});

/** Every entry under `dir`, relative: type, permission bits, modification time, content or link. */
async function describeTree(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const path = relative === '' ? dir : join(dir, relative);
    const stats = await lstat(path);
    const mode = (stats.mode & 0o7777).toString(8);
    const time = stats.mtime.toISOString();
    if (stats.isSymbolicLink()) lines.push(`${relative} link ${time} ${await readlink(path)}`);
    else if (stats.isFile())
      lines.push(`${relative} file ${mode} ${time} ${(await readFile(path)).toString('base64')}`);
    else if (stats.isDirectory()) {
      lines.push(`${relative} dir ${mode} ${time}`);
      for (const name of (await readdir(path)).sort())
        await visit(relative === '' ? name : `${relative}/${name}`);
    }
  };
  await visit('');
  return lines;
}
