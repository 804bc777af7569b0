/**
 * File management, in both eras: get_file_info describes a file or directory, and
 * list_allowed_directories lists the effective roots.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERAS, expectError, ok } from './io-kit.js';
import { managing } from './io-manage-kit.js';

describe.each(ERAS)('managing files, %s era', (era) => {
  const m = managing(era);

  describe('get_file_info and list_allowed_directories', () => {
    it('describes a file and a directory, structured and as text', async () => {
      const s = await m.blind();
      const r = await s.callTool('get_file_info', { path: 'a.txt' });
      const text = ok(r);
      expect(r.structuredContent).toMatchObject({
        // The caller's own words, never the real path behind them.
        path: 'a.txt',
        type: 'file',
        size: 6,
        permissions: expect.stringMatching(/^[0-7]{3}$/),
        modified: expect.any(String),
      });
      expect(text).toContain('size: 6');
      expect(text).toContain('isFile: true');
      const d = await s.callTool('get_file_info', { path: 'dir' });
      expect(d.structuredContent).toMatchObject({ type: 'directory' });
      // A sentence about the path, not "internal error": resolving lets a missing path through.
      expectError(
        await s.callTool('get_file_info', { path: 'nope' }),
        m.w,
        /nope" does not exist; check the path\.$/,
      );
      expectError(
        await s.callTool('get_file_info', { path: 'dir/missing/deeper.txt' }),
        m.w,
        /deeper\.txt" does not exist; check the path\.$/,
      );
      expectError(await s.callTool('get_file_info', { path: '../outside/secret.txt' }), m.w, /outside/);
      const tool = (await s.client.listTools()).tools.find((t) => t.name === 'get_file_info');
      expect(tool?.outputSchema).toBeDefined();
    });

    it('lists the effective roots, narrowed by the client', async () => {
      const s = await m.blind();
      const r = await s.callTool('list_allowed_directories', {});
      expect(r.structuredContent).toEqual({ directories: [m.w.allowed] });
      expect(ok(r)).toBe(`Allowed directories:\n${m.w.allowed}`);
      await s.close();
      const { connect } = await import('@mcpkit/core/testing');
      m.session = await connect(m.app, { era, roots: [join(m.w.allowed, 'dir')] });
      const narrowed = await m.session.callTool('list_allowed_directories', {});
      expect(narrowed.structuredContent).toEqual({ directories: [join(m.w.allowed, 'dir')] });
    });
  });
});
