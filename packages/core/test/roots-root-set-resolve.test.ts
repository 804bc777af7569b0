/**
 * RootSet.resolve on paths inside and out: what it allows and how it shows it, look-alike siblings
 * and .. escapes, and symbolic links (out, dangling, looping, or an alias of the root).
 */
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RootSet } from '../src/roots/root-set.js';
import { box, denied, roots, type Sandbox, useSandbox } from './roots-root-set-kit.js';

useSandbox();

describe('RootSet.resolve: allowed paths', () => {
  it('resolves a relative path against the first root and shows it relative to the root', async () => {
    const r = await roots.resolve('inside.txt');
    expect(r).toEqual({
      real: path.join(box.allowed, 'inside.txt'),
      root: { path: box.allowed, name: 'allowed' },
      display: 'allowed/inside.txt',
      exists: true,
    });
  });

  it('resolves an absolute path inside and the root itself', async () => {
    expect((await roots.resolve(path.join(box.allowed, 'inside.txt'))).exists).toBe(true);
    const root = await roots.resolve(box.allowed);
    expect(root.display).toBe('allowed');
  });

  it('resolves a missing file for writing to its would-be real path', async () => {
    const r = await roots.resolve('new/dir/file.txt', { mode: 'write' });
    expect(r.exists).toBe(false);
    expect(r.real).toBe(path.join(box.allowed, 'new', 'dir', 'file.txt'));
    expect(r.display).toBe('allowed/new/dir/file.txt');
  });

  it('allows a symlink that stays inside and returns its target', async () => {
    await mkdir(path.join(box.allowed, 'sub'));
    await writeFile(path.join(box.allowed, 'sub', 't.txt'), 't');
    await symlink(path.join('sub', 't.txt'), path.join(box.allowed, 'link'));
    const r = await roots.resolve('link');
    expect(r.real).toBe(path.join(box.allowed, 'sub', 't.txt'));
    expect(r.display).toBe('allowed/sub/t.txt');
  });

  it('allows .. that stays inside', async () => {
    const r = await roots.resolve('a/../inside.txt');
    expect(r.real).toBe(path.join(box.allowed, 'inside.txt'));
  });

  it('treats a leading-dots name (..foo) as inside', async () => {
    const r = await roots.resolve('..foo', { mode: 'write' });
    expect(r.real).toBe(path.join(box.allowed, '..foo'));
  });

  it('keeps quotes as part of the name instead of stripping them', async () => {
    const r = await roots.resolve('"/etc/passwd"', { mode: 'write' });
    expect(r.real).toBe(path.join(box.allowed, '"', 'etc', 'passwd"'));
  });

  it('escapes control characters of on-disk names in display', () => {
    expect(roots.display(path.join(box.allowed, 'a\nb'))).toBe('allowed/a\\nb');
    expect(roots.display('/etc/passwd')).toBe('<outside allowed directories>');
  });
});

describe('RootSet.resolve: prefix siblings and .. escapes', () => {
  it.each([
    ['sibling with suffix', (b: Sandbox) => path.join(b.tmp, 'allowed_evil', 'x')],
    ['sibling without separator', (b: Sandbox) => path.join(b.tmp, 'allowedX')],
    ['.. into a sibling', (b: Sandbox) => `${b.allowed}/../allowed_evil/x`],
    ['relative .. escape', () => '../outside/secret.txt'],
    ['deep relative .. escape', () => 'a/b/../../../outside/secret.txt'],
    ['absolute outside path', () => '/etc/passwd'],
    ['the parent of the root', (b: Sandbox) => b.tmp],
  ])('denies %s', async (_label, make) => {
    const input = make(box);
    const message = await denied(input);
    expect(message).toMatch(/^Access denied: ".*" is outside the allowed directories\. Give a path inside/);
  });

  it('denies writes that escape, and nothing is created outside', async () => {
    await denied('../outside/new.txt', 'write');
    expect(await readdir(box.outside)).toEqual(['secret.txt']);
  });
});

describe('RootSet.resolve: symbolic links', () => {
  it('denies reading through a link to a file outside', async () => {
    await symlink(path.join(box.outside, 'secret.txt'), path.join(box.allowed, 'leak'));
    const message = await denied('leak');
    expect(message).toContain('symbolic link');
  });

  it('denies a new file under a link to a directory outside (write mode)', async () => {
    await symlink(box.outside, path.join(box.allowed, 'd'));
    await denied('d/newfile', 'write');
    await denied('d/deeper/newfile', 'create-dir');
    expect(await readdir(box.outside)).toEqual(['secret.txt']);
  });

  it('denies a relative link ../../outside', async () => {
    await mkdir(path.join(box.allowed, 'sub'));
    await symlink('../../outside', path.join(box.allowed, 'sub', 'r'));
    await denied('sub/r/secret.txt');
    await denied('sub/r/new.txt', 'write');
  });

  it('refuses to write through a dangling link as the final component', async () => {
    await symlink(path.join(box.outside, 'new'), path.join(box.allowed, 'x'));
    const message = await denied('x', 'write');
    expect(message).toContain('symbolic link whose target does not exist');
    await denied('x', 'create-dir');
    expect(await readdir(box.outside)).toEqual(['secret.txt']);
  });

  it('refuses to write through a dangling link pointing inside too', async () => {
    await symlink(path.join(box.allowed, 'not-yet'), path.join(box.allowed, 'x'));
    await denied('x', 'write');
  });

  it('refuses a new file under a dangling directory link', async () => {
    await symlink(path.join(box.outside, 'gone'), path.join(box.allowed, 'd'));
    await denied('d/new.txt', 'write');
  });

  it('reports a dangling link as missing when reading', async () => {
    await symlink(path.join(box.allowed, 'not-yet'), path.join(box.allowed, 'x'));
    const r = await roots.resolve('x');
    expect(r.exists).toBe(false);
  });

  it('reports a link loop as a UserError', async () => {
    await symlink('b', path.join(box.allowed, 'a'));
    await symlink('a', path.join(box.allowed, 'b'));
    const message = await denied('a');
    expect(message).toContain('too many levels of symbolic links');
  });

  it('reports a file used as a directory', async () => {
    await denied('inside.txt/x', 'write');
  });

  it('accepts the root reached through a link alias as configured', async () => {
    const alias = path.join(box.tmp, 'alias');
    await symlink(box.allowed, alias);
    const viaAlias = await RootSet.create([alias]);
    expect(viaAlias.roots[0]?.path).toBe(box.allowed);
    const r = await viaAlias.resolve(path.join(alias, 'inside.txt'));
    expect(r.real).toBe(path.join(box.allowed, 'inside.txt'));
  });
});
