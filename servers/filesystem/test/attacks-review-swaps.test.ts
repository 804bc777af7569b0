/**
 * The review attack corpus, links already in place: a directory swapped for a link after the walk
 * listed it (search_content) or on the way to a directory being pinned is refused. The races that
 * swap between the check and the use are in attacks-review-races.test.ts.
 */
import { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileQuery } from '../src/fs/content-search.js';
import { lineTest, searchFile } from '../src/fs/content-worker.js';
import { PinnedDir } from '../src/fs/pinned.js';
import { world } from './harness.js';

describe('finding: search_content reads a file through a directory swapped after the walk', () => {
  it('refuses it even when the link stays inside the root (here, into .ssh)', async () => {
    const w = await world();
    try {
      const a = w.allowed;
      mkdirSync(join(a, 'sub'));
      writeFileSync(join(a, 'sub', 'config'), 'Host example\n');
      mkdirSync(join(a, '.ssh'));
      writeFileSync(join(a, '.ssh', 'config'), 'PRIVATE KEY\n');
      // The walk listed sub/config; then sub became a link to .ssh, which the walk had left out.
      renameSync(join(a, 'sub'), join(a, 'sub_old'));
      symlinkSync(join(a, '.ssh'), join(a, 'sub'));
      const config = {
        ...compileQuery('KEY', false, false),
        contextLines: 0,
        maxFileBytes: 1 << 20,
        maxLineChars: 300,
        root: a,
      };
      const result = searchFile(
        { id: 0, path: join(a, 'sub', 'config'), skip: 0, limit: 10 },
        lineTest(config),
        config,
      );
      expect(result.hits).toEqual([]);
      expect(result.skipped).toBe('unreadable');
    } finally {
      await w.cleanup();
    }
  });
});

describe('pinned directories', () => {
  it('refuse a directory reached through a component swapped for a link', async () => {
    const w = await world();
    try {
      const dir = join(w.allowed, 'sub', 'dir');
      mkdirSync(dir, { recursive: true });
      mkdirSync(join(w.outside, 'dir'));
      renameSync(join(w.allowed, 'sub'), join(w.allowed, 'sub_old'));
      symlinkSync(w.outside, join(w.allowed, 'sub'));
      await expect(PinnedDir.open(dir, 'allowed/sub/dir')).rejects.toThrow(/changed on disk/);
      await expect(PinnedDir.open(join(w.allowed, 'sub'), 'allowed/sub')).rejects.toThrow(/changed on disk/);
      const fine = await PinnedDir.open(join(w.allowed, 'sub_old'), 'allowed/sub_old');
      expect(realpathSync(fine.path)).toBe(join(w.allowed, 'sub_old'));
      await fine.close();
    } finally {
      await w.cleanup();
    }
  });
});
