import { execFileSync } from 'node:child_process';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, type TestSession } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import { leakedPaths, stringsIn, textOf, treeHash, world } from './harness.js';

type World = Awaited<ReturnType<typeof world>>;

interface Attack {
  name: string;
  tool: string;
  args: (w: World) => Record<string, unknown>;
  /** Most attacks must fail; a few succeed harmlessly (a hard link is broken, not written through). */
  maySucceed?: boolean;
}

const read = (name: string, path: (w: World) => string): Attack => ({
  name,
  tool: 'read_text_file',
  args: (w) => ({ path: path(w) }),
});

/** The corpus: the known filesystem attack classes, each as an input a model or a confused user could send. */
const ATTACKS: Attack[] = [
  // Prefix siblings and `..`
  read('prefix sibling', (w) => join(w.evil, 'x.txt')),
  read('.. into the prefix sibling', (w) => `${w.allowed}/../allowed_evil/x.txt`),
  read('name that only starts like the root', (w) => `${w.allowed}X/x.txt`),
  read('.. out to a sibling', (w) => `${w.allowed}/../outside/secret.txt`),
  read('deep .. chain', (w) => `${w.allowed}/a/b/../../../outside/secret.txt`),
  read('absolute path outside', (w) => join(w.outside, 'secret.txt')),
  read('/etc/passwd', () => '/etc/passwd'),
  read('relative .. from the first root', () => '../outside/secret.txt'),
  // Symlinks
  read('file symlink to outside', (w) => join(w.allowed, 'leak')),
  read('directory symlink to outside', (w) => join(w.allowed, 'd', 'secret.txt')),
  read('relative symlink to outside', (w) => join(w.allowed, 'r')),
  read('symlink to /dev/zero', (w) => join(w.allowed, 'z')),
  // Special files
  read('FIFO (would hang a naive read)', (w) => join(w.allowed, 'p')),
  // Input normalisation
  read('NUL byte', (w) => `${w.allowed}/ok.txt\u0000.png`),
  read('newline in the path', (w) => `${w.allowed}/ok\n.txt`),
  read('tilde escape', () => '~/../../etc/passwd'),
  read('file:// URI outside', () => 'file:///etc/passwd'),
  read('http:// URI', () => 'http://127.0.0.1/etc/passwd'),
  read('quoted path', (w) => `"${join(w.outside, 'secret.txt')}"`),
  read('fullwidth dots', (w) => `${w.allowed}/\uFF0E\uFF0E/outside/secret.txt`),
  read('a 40 000-character path', (w) => `${w.allowed}/${'a/'.repeat(20_000)}`),
  // Windows forms, as strings
  read('drive path to a prefix sibling', () => 'C:\\allowed_evil\\x'),
  read('\\\\?\\ prefix', () => '\\\\?\\C:\\allowed\\..\\secret'),
  read('UNC admin share', () => '\\\\localhost\\C$\\allowed\\x'),
  read('alternate data stream', (w) => `${w.allowed}\\.env::$DATA`),
  read('device name', () => 'C:\\allowed\\CON'),
  read('8.3 short name', () => 'C:\\PROGRA~1\\x'),
  // Secrets
  read('.env', (w) => join(w.allowed, '.env')),
  read('.ENV. with trailing dot', (w) => join(w.allowed, '.ENV.')),
  read('private key in .ssh', (w) => join(w.allowed, '.ssh', 'id_rsa')),
  read('symlink with an innocent name to .env', (w) => join(w.allowed, 'notes.txt')),
  // Writes
  {
    name: 'write outside',
    tool: 'write_file',
    args: (w) => ({ path: join(w.outside, 'new.txt'), content: 'x', confirm: true }),
  },
  {
    name: 'write through a directory symlink',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'd', 'new.txt'), content: 'x', confirm: true }),
  },
  {
    name: 'write through a dangling symlink',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'dang'), content: 'x', confirm: true }),
  },
  {
    name: 'write through a file symlink',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'leak'), content: 'x', confirm: true }),
  },
  {
    name: 'write over a hard link to outside',
    tool: 'write_file',
    args: (w) => ({ path: join(w.allowed, 'hl'), content: 'x', confirm: true }),
    maySucceed: true,
  },
  {
    name: 'edit through a symlink',
    tool: 'edit_file',
    args: (w) => ({ path: join(w.allowed, 'leak'), edits: [{ oldText: 'top', newText: 'pwned' }] }),
  },
  {
    name: 'create a directory outside',
    tool: 'create_directory',
    args: (w) => ({ path: `${w.allowed}/../outside/newdir` }),
  },
  {
    name: 'create a directory through a symlink',
    tool: 'create_directory',
    args: (w) => ({ path: join(w.allowed, 'd', 'sub') }),
  },
  {
    name: 'move a file out',
    tool: 'move_file',
    args: (w) => ({ source: join(w.allowed, 'a.txt'), destination: join(w.outside, 'a.txt') }),
  },
  {
    name: 'move a secret in',
    tool: 'move_file',
    args: (w) => ({ source: join(w.outside, 'secret.txt'), destination: join(w.allowed, 's.txt') }),
  },
  {
    name: 'copy a secret in',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.outside, 'secret.txt'), destination: join(w.allowed, 'c.txt') }),
  },
  {
    name: 'copy out',
    tool: 'copy_file',
    args: (w) => ({ source: join(w.allowed, 'a.txt'), destination: join(w.outside, 'c.txt') }),
  },
  {
    name: 'delete outside',
    tool: 'delete_file',
    args: (w) => ({ path: join(w.outside, 'secret.txt'), confirm: true }),
  },
  {
    name: 'delete the root itself',
    tool: 'delete_file',
    args: (w) => ({ path: w.allowed, recursive: true, confirm: true }),
  },
  {
    name: 'patch a file outside',
    tool: 'apply_patch',
    args: () => ({ patch: patchFor('../outside/secret.txt') }),
  },
  { name: 'patch /etc/passwd', tool: 'apply_patch', args: () => ({ patch: patchFor('/etc/passwd') }) },
  {
    name: 'patch through a/ prefix and ..',
    tool: 'apply_patch',
    args: () => ({ patch: patchFor('a/../../outside/secret.txt') }),
  },
  // Listing and searching must not reach through links
  {
    name: 'list a symlinked directory',
    tool: 'list_directory',
    args: (w) => ({ path: join(w.allowed, 'd') }),
  },
  { name: 'info outside', tool: 'get_file_info', args: (w) => ({ path: join(w.outside, 'secret.txt') }) },
  {
    name: 'read many, one outside',
    tool: 'read_multiple_files',
    args: (w) => ({ paths: [join(w.outside, 'secret.txt')] }),
    maySucceed: true,
  },
  {
    name: 'tree does not enter a symlinked directory',
    tool: 'directory_tree',
    args: (w) => ({ path: w.allowed }),
    maySucceed: true,
  },
  {
    name: 'search_files with a .. glob',
    tool: 'search_files',
    args: (w) => ({ path: w.allowed, pattern: '../**' }),
    maySucceed: true,
  },
  {
    name: 'search_content does not read through links',
    tool: 'search_content',
    args: (w) => ({ path: w.allowed, query: 'op secre' }),
    maySucceed: true,
  },
];

function patchFor(path: string): string {
  return [`--- ${path}`, `+++ ${path}`, '@@ -1 +1 @@', '-top secret', '+pwned', ''].join('\n');
}

describe('filesystem attack corpus', () => {
  let w: World;
  let app: App;
  let hashes: { outside: string; evil: string };
  beforeAll(async () => {
    w = await world();
    const a = w.allowed;
    await writeFile(join(a, 'a.txt'), 'a\n');
    await writeFile(join(a, 'ok.txt'), 'ok\n');
    await writeFile(join(a, '.env'), 'TOKEN=hunter2\n');
    await writeFile(join(a, '.ENV.'), 'TOKEN=hunter2\n');
    await mkdir(join(a, '.ssh'));
    await writeFile(join(a, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
    await writeFile(join(w.outside, 'victim'), 'victim\n');
    await symlink(join(w.outside, 'secret.txt'), join(a, 'leak'));
    await symlink(w.outside, join(a, 'd'));
    await symlink('../outside/secret.txt', join(a, 'r'));
    await symlink(join(w.outside, 'from-dangling'), join(a, 'dang'));
    await symlink('/dev/zero', join(a, 'z'));
    await symlink(join(a, '.env'), join(a, 'notes.txt'));
    await link(join(w.outside, 'victim'), join(a, 'hl'));
    execFileSync('mkfifo', [join(a, 'p')]);
    hashes = { outside: await treeHash(w.outside), evil: await treeHash(w.evil) };
    app = createFilesystemApp({ roots: await RootSet.create([a]) });
  });
  afterAll(async () => {
    await app.close();
    await w.cleanup();
  });

  it(`holds at least 40 inputs (${ATTACKS.length})`, () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(40);
  });

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    let session: TestSession;
    beforeAll(async () => {
      session = await connect(app, { era });
    });
    afterAll(() => session.close());

    it.each(ATTACKS)('$name ($tool)', async (attack) => {
      const args = attack.args(w);
      const result = await session.callTool(attack.tool, args);
      const text = JSON.stringify(result);
      if (!attack.maySucceed) expect(result.isError, text.slice(0, 300)).toBe(true);
      expect(text).not.toContain('top secret');
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('PRIVATE KEY');
      // Nothing outside shows up unless the caller named it; an error may echo the input, nothing more.
      const body = `${textOf(result)}\n${JSON.stringify(result.structuredContent ?? {})}`;
      expect(leakedPaths(body, w.outside, stringsIn(args))).toEqual([]);
      if (result.isError) {
        expect(leakedPaths(textOf(result), w.base, stringsIn(args))).toEqual([]);
        expect(textOf(result)).not.toMatch(/\n\s+at /);
      }
      expect(await treeHash(w.outside)).toBe(hashes.outside);
      expect(await treeHash(w.evil)).toBe(hashes.evil);
    });
  });
});
