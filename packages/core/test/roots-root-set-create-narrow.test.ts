/**
 * RootSet with several roots, RootSet.create (the configured ceiling) and RootSet.narrow (client
 * roots within it, never wider).
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { RootSet } from '../src/roots/root-set.js';
import { box, expectUserError, roots, useSandbox } from './roots-root-set-kit.js';

useSandbox();

describe('RootSet: several roots', () => {
  it('never names another root in a denial', async () => {
    const secondName = 'zz-private-project';
    const second = path.join(box.tmp, secondName);
    await mkdir(second);
    const both = await RootSet.create([box.allowed, second]);
    expect(both.roots.map((r) => r.name)).toEqual(['allowed', secondName]);
    for (const input of ['/etc/passwd', '../outside/secret.txt', 'a\u0000b', 'C:\\x\\CON']) {
      await expectUserError(both.resolve(input), input, [box.tmp, secondName]);
    }
    expect((await both.resolve(path.join(second, 'n.txt'), { mode: 'write' })).display).toBe(
      `${secondName}/n.txt`,
    );
  });

  it('denies everything when empty, without naming a path or a root', async () => {
    const ceiling = await RootSet.create([box.allowed, box.outside]);
    const empty = await ceiling.narrow([]);
    expect(empty.isEmpty).toBe(true);
    const message = await expectUserError(empty.resolve('inside.txt'), 'inside.txt', [box.tmp, 'outside']);
    expect(message).toMatch(/^No directories are allowed right now: /);
  });
});

const paths = (set: RootSet): string[] => set.roots.map((r) => r.path);

async function makeNarrowTree(): Promise<void> {
  await mkdir(path.join(box.allowed, 'app', 'src'), { recursive: true });
  await mkdir(path.join(box.allowed, 'other'));
}

describe('RootSet.create', () => {
  beforeEach(makeNarrowTree);

  it('realpaths, dedupes and drops roots inside other roots', async () => {
    const alias = path.join(box.tmp, 'alias');
    await symlink(box.allowed, alias);
    const set = await RootSet.create([path.join(box.allowed, 'app'), box.allowed, alias, `${box.allowed}/`]);
    expect(paths(set)).toEqual([box.allowed]);
  });

  it('keeps separate roots in order and gives clashing basenames distinct names', async () => {
    await mkdir(path.join(box.outside, 'app'));
    const set = await RootSet.create([path.join(box.allowed, 'app'), path.join(box.outside, 'app')]);
    expect(set.roots.map((r) => r.name)).toEqual(['app', 'app-2']);
  });

  it('fails closed on a missing directory or a file, naming the argument', async () => {
    await expect(RootSet.create([box.allowed, path.join(box.tmp, 'nope')])).rejects.toThrow(
      /Allowed directory argument 2 .* does not exist/,
    );
    await expect(RootSet.create([path.join(box.allowed, 'inside.txt')])).rejects.toThrow(
      /is not a directory/,
    );
    await expect(RootSet.create([''])).rejects.toThrow(/argument 1/);
  });

  it('expands ~ in configured directories', async () => {
    const set = await RootSet.create(['~/app'], { home: box.allowed });
    expect(paths(set)).toEqual([path.join(box.allowed, 'app')]);
  });

  it('contains() is segment-wise', () => {
    expect(roots.contains(path.join(box.allowed, 'a', 'b'))?.name).toBe('allowed');
    expect(roots.contains(path.join(box.tmp, 'allowed_evil', 'x'))).toBeUndefined();
    expect(roots.contains(path.join(box.tmp, 'allowedX'))).toBeUndefined();
  });
});

describe('RootSet.narrow', () => {
  beforeEach(makeNarrowTree);

  it('narrows to a client root inside the ceiling', async () => {
    const narrowed = await roots.narrow([path.join(box.allowed, 'app')]);
    expect(paths(narrowed)).toEqual([path.join(box.allowed, 'app')]);
    expect((await narrowed.resolve('src')).display).toBe('app/src');
    await expectUserError(narrowed.resolve('../other'), '../other', [box.tmp]);
    const sibling = path.join(box.allowed, 'inside.txt');
    await expectUserError(narrowed.resolve(sibling), sibling, [box.tmp]);
  });

  it('drops client roots outside the ceiling, including look-alike siblings', async () => {
    const narrowed = await roots.narrow([box.outside, path.join(box.tmp, 'allowed_evil'), '/']);
    expect(paths(narrowed)).toEqual([box.allowed]);
    const outsideOnly = await roots.narrow([box.outside, path.join(box.tmp, 'allowedX')]);
    expect(outsideOnly.isEmpty).toBe(true);
  });

  it('narrows a parent of the ceiling to the ceiling itself', async () => {
    const narrowed = await roots.narrow([box.tmp]);
    expect(paths(narrowed)).toEqual([box.allowed]);
    await expectUserError(narrowed.resolve('../outside/secret.txt'), '../outside/secret.txt', [box.tmp]);
  });

  it('revokes access for an empty list', async () => {
    const narrowed = await roots.narrow([]);
    expect(narrowed.isEmpty).toBe(true);
    expect(narrowed.roots).toEqual([]);
    await expect(narrowed.resolve('inside.txt')).rejects.toThrow(/^No directories are allowed right now: /);
  });

  it('skips missing, relative and non-directory client roots', async () => {
    await writeFile(path.join(box.allowed, 'app', 'f.txt'), 'x');
    const narrowed = await roots.narrow([
      path.join(box.allowed, 'missing'),
      'app',
      path.join(box.allowed, 'app', 'f.txt'),
      path.join(box.allowed, 'other'),
    ]);
    expect(paths(narrowed)).toEqual([path.join(box.allowed, 'other')]);
  });

  it('follows a client root symlink and judges its real location', async () => {
    const link = path.join(box.allowed, 'to-outside');
    await symlink(box.outside, link);
    expect((await roots.narrow([link])).isEmpty).toBe(true);
    const inside = path.join(box.tmp, 'to-app');
    await symlink(path.join(box.allowed, 'app'), inside);
    const narrowed = await roots.narrow([inside]);
    expect(paths(narrowed)).toEqual([path.join(box.allowed, 'app')]);
    expect((await narrowed.resolve(path.join(inside, 'src'))).display).toBe('app/src');
  });

  it('never widens: narrowing a narrowed set stays within it', async () => {
    const narrowed = await roots.narrow([path.join(box.allowed, 'app')]);
    const again = await narrowed.narrow([box.allowed]);
    expect(paths(again)).toEqual([path.join(box.allowed, 'app')]);
  });
});
