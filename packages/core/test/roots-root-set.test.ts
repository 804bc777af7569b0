import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { RootSet } from '../src/roots/root-set.js';

/** A fresh real temp dir with an allowed root, look-alike siblings and an outside area. */
interface Sandbox {
  tmp: string;
  allowed: string;
  outside: string;
  cleanup(): Promise<void>;
}

async function makeSandbox(): Promise<Sandbox> {
  // realpath: os.tmpdir() itself may be a symlink (macOS /var → /private/var).
  const tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcpkit-roots-')));
  const allowed = path.join(tmp, 'allowed');
  const outside = path.join(tmp, 'outside');
  for (const dir of [allowed, outside, path.join(tmp, 'allowed_evil'), path.join(tmp, 'allowedX')]) {
    await mkdir(dir);
  }
  await writeFile(path.join(allowed, 'inside.txt'), 'inside');
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  await writeFile(path.join(tmp, 'allowed_evil', 'x'), 'evil');
  return { tmp, allowed, outside, cleanup: () => rm(tmp, { recursive: true, force: true }) };
}

/**
 * Asserts that `promise` rejects with a UserError whose text (apart from the quoted input itself)
 * names no host path and none of `forbidden`. Returns the message for further checks.
 */
async function expectUserError(
  promise: Promise<unknown>,
  input: string,
  forbidden: readonly string[],
): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  const message = (error as UserError).message;
  const withoutInput = message.split(input).join('');
  for (const text of forbidden) expect(withoutInput).not.toContain(text);
  return message;
}

let box: Sandbox;
let roots: RootSet;

beforeEach(async () => {
  box = await makeSandbox();
  roots = await RootSet.create([box.allowed], { home: path.join(box.allowed, 'home') });
});
afterEach(async () => {
  await box.cleanup();
});

/** Denied, with no host path (and not the outside dir's name) in the message beyond the input. */
function denied(input: string, mode: 'read' | 'write' | 'create-dir' = 'read'): Promise<string> {
  return expectUserError(roots.resolve(input, { mode }), input, [box.tmp, 'outside/', 'allowed_evil']);
}

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
    expect(message).toMatch(
      /^Access denied: ".*" is outside the allowed directories\. Use list_allowed_directories/,
    );
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

describe('RootSet.resolve: input forms', () => {
  it('rejects NUL and other control characters', async () => {
    for (const input of ['inside.txt\u0000.png', `${'a'}\u0000b`, 'a\tb', 'a\nb', 'a\u001bb', 'a\u007fb']) {
      const message = await denied(input);
      expect(message).toContain('control character');
      expect(message).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  it('rejects the empty string', async () => {
    await denied('');
  });

  it('expands ~ inside an allowed root', async () => {
    await mkdir(path.join(box.allowed, 'home'));
    await writeFile(path.join(box.allowed, 'home', 'notes.md'), 'n');
    const r = await roots.resolve('~/notes.md');
    expect(r.real).toBe(path.join(box.allowed, 'home', 'notes.md'));
    expect((await roots.resolve('~')).display).toBe('allowed/home');
  });

  it('denies ~ paths that land outside, and ~user forms', async () => {
    await denied('~/../../outside/secret.txt');
    const outsideHome = await RootSet.create([box.allowed], { home: box.outside });
    await expectUserError(outsideHome.resolve('~/secret.txt'), '~/secret.txt', [box.tmp]);
    const message = await denied('~root/.ssh/id_rsa');
    expect(message).toContain('~name');
  });

  it('accepts file:// URIs inside and denies file:///etc/passwd and other schemes', async () => {
    const inside = `file://${path.join(box.allowed, 'inside.txt')}`;
    expect((await roots.resolve(inside)).display).toBe('allowed/inside.txt');
    expect((await roots.resolve(`file://localhost${path.join(box.allowed, 'inside.txt')}`)).exists).toBe(
      true,
    );
    await denied('file:///etc/passwd');
    expect(await denied('http://example.com/x')).toContain('unsupported scheme');
    expect(await denied('file://evil.example/share/x')).toContain('another host');
    expect(await denied(`file://${box.allowed}/a%00b`)).toContain('control character');
  });

  it('resolves an NFC input to a file stored with an NFD name', async () => {
    const nfd = 'cafe\u0301.txt';
    await writeFile(path.join(box.allowed, nfd), 'nfd');
    const r = await roots.resolve('caf\u00e9.txt');
    expect(r.exists).toBe(true);
    expect(await readFile(r.real, 'utf8')).toBe('nfd');
  });

  it('creates new names in NFC form', async () => {
    const r = await roots.resolve('cafe\u0301-new.txt', { mode: 'write' });
    expect(path.basename(r.real)).toBe('caf\u00e9-new.txt');
  });

  it('truncates and escapes long inputs in messages', async () => {
    const input = `/etc/${'x'.repeat(500)}`;
    const message = await expectUserError(roots.resolve(input), 'never-present', [box.tmp]);
    expect(message.length).toBeLessThan(400);
    expect(message).toContain('…');
  });
});

describe('RootSet.resolve: Windows string forms (checked on every platform)', () => {
  it.each([
    'C:\\allowed_evil',
    'c:\\ALLOWED\\x',
    '\\\\?\\C:\\allowed\\..\\secret',
    '\\\\.\\C:\\allowed\\x',
    '\\\\localhost\\C$\\allowed\\x',
    'C:\\allowed\\.env::$DATA',
    'sub\\.env::$DATA',
    'C:\\allowed\\.env.',
    'sub\\.env.',
    'C:\\allowed\\.env ',
    'sub\\.env ',
    'C:\\allowed\\CON',
    'sub\\con',
    'C:\\allowed\\AUX.txt',
    'sub\\aux.TXT',
    'sub\\nul',
    'sub\\COM1.log',
    'sub\\LPT9',
    'C:\\PROGRA~1',
    'C:\\allowed\\GIT~1\\config',
    'GIT~1\\config',
  ])('rejects %s', async (input) => {
    await denied(input);
  });

  it('keeps POSIX names that merely look like Windows (a:b, CON, x.)', async () => {
    if (process.platform === 'win32') return;
    for (const name of ['a:b', 'CON', 'x.', 'PROGRA~1']) {
      expect((await roots.resolve(name, { mode: 'write' })).real).toBe(path.join(box.allowed, name));
    }
  });
});

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
