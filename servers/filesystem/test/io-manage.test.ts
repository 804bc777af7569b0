import { existsSync, statSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeHash, world } from './harness.js';
import { asker, ERAS, expectError, ioApp, ok, open, type TestSession, type World } from './io-kit.js';

// A second file system (tmpfs) to move across, where the machine has one.
const SHM = '/dev/shm';
const crossDevice = existsSync(SHM) && statSync(SHM).dev !== statSync(tmpdir()).dev;

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

describe.each(ERAS)('managing files, %s era', (era) => {
  let w: World;
  let app: App;
  let session: TestSession | undefined;
  let answer: 'accept' | 'decline';
  let ask: ReturnType<typeof asker>;

  beforeEach(async () => {
    w = await world();
    await writeFile(join(w.allowed, 'a.txt'), 'alpha\n');
    await writeFile(join(w.allowed, 'b.txt'), 'beta\n');
    await mkdir(join(w.allowed, 'dir', 'sub'), { recursive: true });
    await writeFile(join(w.allowed, 'dir', 'one.txt'), '1');
    await writeFile(join(w.allowed, 'dir', 'sub', 'two.txt'), '2');
    app = await ioApp([w.allowed]);
    answer = 'accept';
    ask = asker(() => answer);
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await app.close();
    await w.cleanup();
  });

  async function asking() {
    session = await open(app, era, ask);
    return session;
  }
  async function blind() {
    session = await open(app, era);
    return session;
  }

  describe('get_file_info and list_allowed_directories', () => {
    it('describes a file and a directory, structured and as text', async () => {
      const s = await blind();
      const r = await s.callTool('get_file_info', { path: 'a.txt' });
      const text = ok(r);
      expect(r.structuredContent).toMatchObject({
        path: join(w.allowed, 'a.txt'),
        type: 'file',
        size: 6,
        permissions: expect.stringMatching(/^[0-7]{3}$/),
        modified: expect.any(String),
      });
      expect(text).toContain('size: 6');
      expect(text).toContain('isFile: true');
      const d = await s.callTool('get_file_info', { path: 'dir' });
      expect(d.structuredContent).toMatchObject({ type: 'directory' });
      expectError(await s.callTool('get_file_info', { path: 'nope' }), w);
      expectError(await s.callTool('get_file_info', { path: '../outside/secret.txt' }), w, /outside/);
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'get_file_info');
      expect(tool?.outputSchema).toBeDefined();
    });

    it('lists the effective roots, narrowed by the client', async () => {
      const s = await blind();
      const r = await s.callTool('list_allowed_directories', {});
      expect(r.structuredContent).toEqual({ directories: [w.allowed] });
      expect(ok(r)).toBe(`Allowed directories:\n${w.allowed}`);
      await s.close();
      const { connect } = await import('@mcpkit/core/testing');
      session = await connect(app, { era, roots: [join(w.allowed, 'dir')] });
      const narrowed = await session.callTool('list_allowed_directories', {});
      expect(narrowed.structuredContent).toEqual({ directories: [join(w.allowed, 'dir')] });
    });
  });

  describe('copy_file', () => {
    it('copies to a new file without asking', async () => {
      const s = await asking();
      const text = ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'dir/copy.txt' }));
      expect(text).toContain(join(w.allowed, 'dir', 'copy.txt'));
      expect(await readFile(join(w.allowed, 'dir', 'copy.txt'), 'utf8')).toBe('alpha\n');
      expect(ask.asked).toEqual([]);
    });

    it('refuses an existing destination without overwrite, and asks with it', async () => {
      const s = await asking();
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt' }),
        w,
        /overwrite: true/,
      );
      answer = 'decline';
      ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(w.allowed, 'b.txt'), 'utf8')).toBe('beta\n');
      answer = 'accept';
      ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(ask.asked).toEqual([
        'Replace "b.txt" with a copy of "a.txt"?',
        'Replace "b.txt" with a copy of "a.txt"?',
      ]);
    });

    it('needs confirm: true to overwrite when the client cannot ask', async () => {
      const s = await blind();
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }),
        w,
        /confirm/,
      );
      ok(
        await s.callTool('copy_file', {
          source: 'a.txt',
          destination: 'b.txt',
          overwrite: true,
          confirm: true,
        }),
      );
      expect(await readFile(join(w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
    });

    it('copies files only, and not in or out of the roots', async () => {
      const s = await blind();
      expectError(
        await s.callTool('copy_file', { source: 'dir', destination: 'dir2' }),
        w,
        /copies single files/,
      );
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'dir' }),
        w,
        /is a directory/,
      );
      expectError(await s.callTool('copy_file', { source: 'a.txt', destination: 'a.txt' }), w, /same file/);
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'x/y.txt' }),
        w,
        /create_directory/,
      );
      const before = await treeHash(w.outside);
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: '../outside/c.txt' }),
        w,
        /outside/,
      );
      expectError(
        await s.callTool('copy_file', { source: '../outside/secret.txt', destination: 'c.txt' }),
        w,
        /outside/,
      );
      expect(await treeHash(w.outside)).toBe(before);
      expect(await exists(join(w.allowed, 'c.txt'))).toBe(false);
    });

    it('replaces a destination symlink that points outside rather than writing through it', async () => {
      await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'trap'));
      const before = await treeHash(w.outside);
      const s = await blind();
      // Resolving the destination refuses the escaping link outright.
      expectError(
        await s.callTool('copy_file', {
          source: 'a.txt',
          destination: 'trap',
          overwrite: true,
          confirm: true,
        }),
        w,
        /symbolic link/,
      );
      expect(await treeHash(w.outside)).toBe(before);
    });
  });

  describe('move_file', () => {
    it('renames a file and a directory, and refuses an existing destination', async () => {
      const s = await blind();
      expect(ok(await s.callTool('move_file', { source: 'a.txt', destination: 'dir/a2.txt' }))).toBe(
        `Moved ${join(w.allowed, 'a.txt')} to ${join(w.allowed, 'dir', 'a2.txt')}.`,
      );
      expect(await readFile(join(w.allowed, 'dir', 'a2.txt'), 'utf8')).toBe('alpha\n');
      ok(await s.callTool('move_file', { source: 'dir/sub', destination: 'moved' }));
      expect(await readFile(join(w.allowed, 'moved', 'two.txt'), 'utf8')).toBe('2');
      expectError(
        await s.callTool('move_file', { source: 'b.txt', destination: 'dir/a2.txt' }),
        w,
        /already exists/,
      );
      expectError(
        await s.callTool('move_file', { source: 'dir', destination: 'dir/inner' }),
        w,
        /into itself/,
      );
      expectError(await s.callTool('move_file', { source: 'nope', destination: 'x' }), w, /does not exist/);
    });

    it('overwrites only with overwrite: true and the user’s consent', async () => {
      const s = await asking();
      answer = 'decline';
      ok(await s.callTool('move_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(w.allowed, 'b.txt'), 'utf8')).toBe('beta\n');
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(true);
      answer = 'accept';
      ok(await s.callTool('move_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(false);
      expect(ask.asked).toEqual([
        'Replace "b.txt" with "a.txt" (moved)?',
        'Replace "b.txt" with "a.txt" (moved)?',
      ]);
      expectError(
        await s.callTool('move_file', { source: 'b.txt', destination: 'dir', overwrite: true }),
        w,
        /directory/,
      );
    });

    it('refuses to move a root, or anything out of or into the roots', async () => {
      const s = await blind();
      const before = await treeHash(w.outside);
      expectError(
        await s.callTool('move_file', { source: w.allowed, destination: 'x' }),
        w,
        /allowed directories itself/,
        [w.allowed],
      );
      expectError(
        await s.callTool('move_file', { source: '.', destination: 'x' }),
        w,
        /allowed directories itself/,
      );
      expectError(
        await s.callTool('move_file', { source: 'a.txt', destination: '../outside/a.txt' }),
        w,
        /outside/,
      );
      expectError(
        await s.callTool('move_file', { source: '../outside/secret.txt', destination: 's.txt' }),
        w,
        /outside/,
      );
      expect(await treeHash(w.outside)).toBe(before);
    });

    it('moves a symbolic link as a link', async () => {
      await symlink('a.txt', join(w.allowed, 'link'));
      const s = await blind();
      ok(await s.callTool('move_file', { source: 'link', destination: 'dir/link' }));
      expect(await readlink(join(w.allowed, 'dir', 'link'))).toBe('a.txt');
      expect(await readFile(join(w.allowed, 'a.txt'), 'utf8')).toBe('alpha\n');
    });

    it.skipIf(!crossDevice)('moves across file systems by copying and deleting', async () => {
      const shm = await realpath(await mkdtemp(join(SHM, 'mcpkit-io-')));
      try {
        await app.close();
        app = await ioApp([w.allowed, shm]);
        const s = await blind();
        ok(await s.callTool('move_file', { source: 'a.txt', destination: join(shm, 'a.txt') }));
        expect(await readFile(join(shm, 'a.txt'), 'utf8')).toBe('alpha\n');
        expect(await exists(join(w.allowed, 'a.txt'))).toBe(false);
        ok(await s.callTool('move_file', { source: 'dir', destination: join(shm, 'dir') }));
        expect(await readFile(join(shm, 'dir', 'sub', 'two.txt'), 'utf8')).toBe('2');
        expect(await exists(join(w.allowed, 'dir'))).toBe(false);
        expect((await readdir(shm)).sort()).toEqual(['a.txt', 'dir']);
      } finally {
        await rm(shm, { recursive: true, force: true });
      }
    });
  });

  describe('delete_file', () => {
    it('always asks before deleting a file, and honours a decline', async () => {
      const s = await asking();
      answer = 'decline';
      ok(await s.callTool('delete_file', { path: 'a.txt', confirm: true }));
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(true);
      answer = 'accept';
      expect(ok(await s.callTool('delete_file', { path: 'a.txt' }))).toBe(
        `Deleted ${join(w.allowed, 'a.txt')}.`,
      );
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(false);
      expect(ask.asked).toEqual(['Delete "a.txt"?', 'Delete "a.txt"?']);
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'delete_file');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    });

    it('needs confirm: true when the client cannot ask', async () => {
      const s = await blind();
      expectError(await s.callTool('delete_file', { path: 'a.txt' }), w, /confirm/);
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(true);
      ok(await s.callTool('delete_file', { path: 'a.txt', confirm: true }));
      expect(await exists(join(w.allowed, 'a.txt'))).toBe(false);
    });

    it('deletes a directory only with recursive: true, saying how many entries go', async () => {
      const s = await asking();
      expectError(await s.callTool('delete_file', { path: 'dir' }), w, /recursive: true/);
      ok(await s.callTool('delete_file', { path: 'dir', recursive: true }));
      expect(ask.asked).toEqual(['Delete the directory "dir" and the 3 entries in it?']);
      expect(await exists(join(w.allowed, 'dir'))).toBe(false);
    });

    it('deletes a symbolic link, never its target, even one that points outside', async () => {
      await symlink(join(w.allowed, 'dir'), join(w.allowed, 'dirlink'));
      await symlink(join(w.outside, 'secret.txt'), join(w.allowed, 'leak'));
      await symlink(w.outside, join(w.allowed, 'outdir'));
      await symlink(join(w.outside, 'gone'), join(w.allowed, 'dangling'));
      const before = await treeHash(w.outside);
      const s = await asking();
      for (const path of ['dirlink', 'leak', 'outdir', 'dangling']) {
        ok(await s.callTool('delete_file', { path, recursive: true }));
        expect(await exists(join(w.allowed, path))).toBe(false);
      }
      expect(ask.asked[0]).toBe('Delete the symbolic link "dirlink"? What it points to is kept.');
      expect(await readFile(join(w.allowed, 'dir', 'sub', 'two.txt'), 'utf8')).toBe('2');
      expect(await treeHash(w.outside)).toBe(before);
    });

    it('refuses to delete a root, or anything outside', async () => {
      const s = await blind();
      const before = await treeHash(w.outside);
      expectError(
        await s.callTool('delete_file', { path: w.allowed, recursive: true, confirm: true }),
        w,
        /itself/,
        [w.allowed],
      );
      expectError(
        await s.callTool('delete_file', { path: 'dir/..', recursive: true, confirm: true }),
        w,
        /itself/,
      );
      expectError(
        await s.callTool('delete_file', { path: '../outside/secret.txt', confirm: true }),
        w,
        /outside/,
      );
      expectError(await s.callTool('delete_file', { path: 'outdir/secret.txt', confirm: true }), w);
      expect(await exists(w.allowed)).toBe(true);
      expect(await treeHash(w.outside)).toBe(before);
    });

    it('refuses secret names unless allowed', async () => {
      await writeFile(join(w.allowed, '.env'), 'A=1\n');
      const s = await blind();
      expectError(await s.callTool('delete_file', { path: '.env', confirm: true }), w, /holds secrets/);
      expectError(
        await s.callTool('move_file', { source: '.env', destination: 'e.txt' }),
        w,
        /holds secrets/,
      );
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'id_rsa' }),
        w,
        /holds secrets/,
      );
      expect(await exists(join(w.allowed, '.env'))).toBe(true);
    });
  });
});
