/**
 * File management, in both eras: delete_file always asks (or needs confirm: true), deletes a
 * directory only with recursive: true and a link never through to its target, and refuses roots,
 * anything outside and secret names.
 */
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeHash } from './harness.js';
import { ERAS, expectError, ok } from './io-kit.js';
import { exists, managing } from './io-manage-kit.js';

describe.each(ERAS)('managing files, %s era', (era) => {
  const m = managing(era);

  describe('delete_file', () => {
    it('always asks before deleting a file, and honours a decline', async () => {
      const s = await m.asking();
      m.answer = 'decline';
      ok(await s.callTool('delete_file', { path: 'a.txt', confirm: true }));
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(true);
      m.answer = 'accept';
      expect(ok(await s.callTool('delete_file', { path: 'a.txt' }))).toBe('Deleted "a.txt".');
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(false);
      expect(m.ask.asked).toEqual(['Delete "a.txt"?', 'Delete "a.txt"?']);
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'delete_file');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    });

    it('needs confirm: true when the client cannot ask', async () => {
      const s = await m.blind();
      expectError(await s.callTool('delete_file', { path: 'a.txt' }), m.w, /confirm/);
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(true);
      ok(await s.callTool('delete_file', { path: 'a.txt', confirm: true }));
      expect(await exists(join(m.w.allowed, 'a.txt'))).toBe(false);
    });

    it('deletes a directory only with recursive: true, saying how many entries go', async () => {
      const s = await m.asking();
      expectError(await s.callTool('delete_file', { path: 'dir' }), m.w, /recursive: true/);
      ok(await s.callTool('delete_file', { path: 'dir', recursive: true }));
      expect(m.ask.asked).toEqual(['Delete the directory "dir" and the 3 entries in it?']);
      expect(await exists(join(m.w.allowed, 'dir'))).toBe(false);
    });

    it('deletes a symbolic link, never its target, even one that points outside', async () => {
      await symlink(join(m.w.allowed, 'dir'), join(m.w.allowed, 'dirlink'));
      await symlink(join(m.w.outside, 'secret.txt'), join(m.w.allowed, 'leak'));
      await symlink(m.w.outside, join(m.w.allowed, 'outdir'));
      await symlink(join(m.w.outside, 'gone'), join(m.w.allowed, 'dangling'));
      const before = await treeHash(m.w.outside);
      const s = await m.asking();
      for (const path of ['dirlink', 'leak', 'outdir', 'dangling']) {
        ok(await s.callTool('delete_file', { path, recursive: true }));
        expect(await exists(join(m.w.allowed, path))).toBe(false);
      }
      expect(m.ask.asked[0]).toBe('Delete the symbolic link "dirlink"? What it points to is kept.');
      expect(await readFile(join(m.w.allowed, 'dir', 'sub', 'two.txt'), 'utf8')).toBe('2');
      expect(await treeHash(m.w.outside)).toBe(before);
    });

    it('refuses to delete a root, or anything outside', async () => {
      const s = await m.blind();
      const before = await treeHash(m.w.outside);
      expectError(
        await s.callTool('delete_file', { path: m.w.allowed, recursive: true, confirm: true }),
        m.w,
        /itself/,
        [m.w.allowed],
      );
      expectError(
        await s.callTool('delete_file', { path: 'dir/..', recursive: true, confirm: true }),
        m.w,
        /itself/,
      );
      expectError(
        await s.callTool('delete_file', { path: '../outside/secret.txt', confirm: true }),
        m.w,
        /outside/,
      );
      expectError(await s.callTool('delete_file', { path: 'outdir/secret.txt', confirm: true }), m.w);
      expect(await exists(m.w.allowed)).toBe(true);
      expect(await treeHash(m.w.outside)).toBe(before);
    });

    it('refuses secret names unless allowed', async () => {
      await writeFile(join(m.w.allowed, '.env'), 'A=1\n');
      const s = await m.blind();
      expectError(await s.callTool('delete_file', { path: '.env', confirm: true }), m.w, /holds secrets/);
      expectError(
        await s.callTool('move_file', { source: '.env', destination: 'e.txt' }),
        m.w,
        /holds secrets/,
      );
      expectError(
        await s.callTool('copy_file', { source: 'a.txt', destination: 'id_rsa' }),
        m.w,
        /holds secrets/,
      );
      expect(await exists(join(m.w.allowed, '.env'))).toBe(true);
    });
  });
});
