/**
 * File management, in both eras: copy_file copies single files inside the roots, overwriting only
 * with overwrite: true and the user's consent (or confirm: true).
 */
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeHash } from './harness.js';
import { ERAS, expectError, ok } from './io-kit.js';
import { exists, managing } from './io-manage-kit.js';

describe.each(ERAS)('managing files, %s era', (era) => {
  const m = managing(era);

  describe('copy_file', () => {
    it('copies to a new file without asking', async () => {
      const s = await m.asking();
      const text = ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'dir/copy.txt' }));
      expect(text).toBe('Copied "a.txt" to "dir/copy.txt" (6 bytes; new file).');
      expect(await readFile(join(m.w.allowed, 'dir', 'copy.txt'), 'utf8')).toBe('alpha\n');
      expect(m.ask.asked).toEqual([]);
    });

    it('refuses an existing destination without overwrite, and asks with it', async () => {
      const s = await m.asking();
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt' }),
        m.w,
        /overwrite: true/,
      );
      m.answer = 'decline';
      ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(m.w.allowed, 'b.txt'), 'utf8')).toBe('beta\n');
      m.answer = 'accept';
      ok(await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }));
      expect(await readFile(join(m.w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
      expect(m.ask.asked).toEqual([
        'Replace "b.txt" with a copy of "a.txt"?',
        'Replace "b.txt" with a copy of "a.txt"?',
      ]);
    });

    it('needs confirm: true to overwrite when the client cannot ask', async () => {
      const s = await m.blind();
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'b.txt', overwrite: true }),
        m.w,
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
      expect(await readFile(join(m.w.allowed, 'b.txt'), 'utf8')).toBe('alpha\n');
    });

    it('copies files only, and not in or out of the roots', async () => {
      const s = await m.blind();
      expectError(
        await s.callTool('copy_file', { source: 'dir', destination: 'dir2' }),
        m.w,
        /copies single files/,
      );
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'dir' }),
        m.w,
        /is a directory/,
      );
      expectError(await s.callTool('copy_file', { source: 'a.txt', destination: 'a.txt' }), m.w, /same file/);
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'x/y.txt' }),
        m.w,
        /create_directory/,
      );
      const before = await treeHash(m.w.outside);
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: '../outside/c.txt' }),
        m.w,
        /outside/,
      );
      expectError(
        await s.callTool('copy_file', { source: '../outside/secret.txt', destination: 'c.txt' }),
        m.w,
        /outside/,
      );
      expect(await treeHash(m.w.outside)).toBe(before);
      expect(await exists(join(m.w.allowed, 'c.txt'))).toBe(false);
    });

    it('replaces a destination symlink that points outside rather than writing through it', async () => {
      await symlink(join(m.w.outside, 'secret.txt'), join(m.w.allowed, 'trap'));
      const before = await treeHash(m.w.outside);
      const s = await m.blind();
      // Resolving the destination refuses the escaping link outright.
      expectError(
        await s.callTool('copy_file', {
          source: 'a.txt',
          destination: 'trap',
          overwrite: true,
          confirm: true,
        }),
        m.w,
        /symbolic link/,
      );
      expect(await treeHash(m.w.outside)).toBe(before);
    });
  });
});
