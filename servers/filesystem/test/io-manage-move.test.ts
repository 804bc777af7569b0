/**
 * File management, in both eras: move_file renames files, directories and links inside the roots,
 * overwriting only with consent, and moves across file systems.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeHash } from './harness.js';
import { ERAS, expectError, ioApp, ok } from './io-kit.js';
import { exists, managing } from './io-manage-kit.js';

// A second file system (tmpfs) to move across, where the machine has one.
const SHM = '/dev/shm';
const crossDevice = existsSync(SHM) && statSync(SHM).dev !== statSync(tmpdir()).dev;

describe.each(ERAS)('managing files, %s era', (era) => {
  const m = managing(era);

  describe('move_file', () => {
    it('renames a file and a directory, and refuses an existing destination', async () => {
      const s = await m.blind();
      expect(ok(await s.callTool('move_file', { source: 'a.txt', destination: 'dir/a2.txt' }))).toBe(
        'Moved "a.txt" to "dir/a2.txt".',
      );
      expect(await readFile(join(m.w.allowed, 'dir', 'a2.txt'), 'utf8')).toBe('alpha\n');
      ok(await s.callTool('move_file', { source: 'dir/sub', destination: 'moved' }));
      expect(await readFile(join(m.w.allowed, 'moved', 'two.txt'), 'utf8')).toBe('2');
      expectError(
        await s.callTool('move_file', { source: 'b.txt', destination: 'dir/a2.txt' }),
        m.w,
        /already exists/,
      );
      expectError(
        await s.callTool('move_file', { source: 'dir', destination: 'dir/inner' }),
        m.w,
        /into itself/,
      );
      expectError(await s.callTool('move_file', { source: 'nope', destination: 'x' }), m.w, /does not exist/);
    });

    it('overwrites only with overwrite: true and the user’s consent', async () => {
      const s = await m.asking();
      m.answer = 'decline';
      ok(await s.callTool('move_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(m.w.allowed, 'b.txt'), 'utf8')).toBe('beta\n');
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(true);
      m.answer = 'accept';
      ok(await s.callTool('move_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(m.w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(false);
      expect(m.ask.asked).toEqual([
        'Replace "b.txt" with "a.txt" (moved)?',
        'Replace "b.txt" with "a.txt" (moved)?',
      ]);
      expectError(
        await s.callTool('move_file', { source: 'b.txt', destination: 'dir', overwrite: true }),
        m.w,
        /directory/,
      );
    });

    it('refuses to move a root, or anything out of or into the roots', async () => {
      const s = await m.blind();
      const before = await treeHash(m.w.outside);
      expectError(
        await s.callTool('move_file', { source: m.w.allowed, destination: 'x' }),
        m.w,
        /allowed directories itself/,
        [m.w.allowed],
      );
      expectError(
        await s.callTool('move_file', { source: '.', destination: 'x' }),
        m.w,
        /allowed directories itself/,
      );
      expectError(
        await s.callTool('move_file', { source: 'a.txt', destination: '../outside/a.txt' }),
        m.w,
        /outside/,
      );
      expectError(
        await s.callTool('move_file', { source: '../outside/secret.txt', destination: 's.txt' }),
        m.w,
        /outside/,
      );
      expect(await treeHash(m.w.outside)).toBe(before);
    });

    it('moves a symbolic link as a link', async () => {
      await symlink('a.txt', join(m.w.allowed, 'link'));
      const s = await m.blind();
      ok(await s.callTool('move_file', { source: 'link', destination: 'dir/link' }));
      expect(await readlink(join(m.w.allowed, 'dir', 'link'))).toBe('a.txt');
      expect(await readFile(join(m.w.allowed, 'a.txt'), 'utf8')).toBe('alpha\n');
    });

    it.skipIf(!crossDevice)('moves across file systems by copying and deleting', async () => {
      const shm = await realpath(await mkdtemp(join(SHM, 'mcpkit-io-')));
      try {
        await m.app.close();
        m.app = await ioApp([m.w.allowed, shm]);
        const s = await m.blind();
        ok(await s.callTool('move_file', { source: 'a.txt', destination: join(shm, 'a.txt') }));
        expect(await readFile(join(shm, 'a.txt'), 'utf8')).toBe('alpha\n');
        expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(false);
        ok(await s.callTool('move_file', { source: 'dir', destination: join(shm, 'dir') }));
        expect(await readFile(join(shm, 'dir', 'sub', 'two.txt'), 'utf8')).toBe('2');
        expect(await exists(join(m.w.allowed, 'dir'))).toBe(false);
        expect((await readdir(shm)).sort()).toEqual(['a.txt', 'dir']);
      } finally {
        await rm(shm, { recursive: true, force: true });
      }
    });
  });
});
