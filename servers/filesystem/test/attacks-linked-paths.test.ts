/**
 * A directory reached through a link names its files the caller's way. search_content walks the
 * real directory, and used to name every hit by that real path: a search of `root/link` (a link to
 * `root/real`) answered `root/real/notes.txt`, and a search of a root configured through a link
 * answered with the host path behind it. Hits must be paths under the directory the caller asked
 * about, so they can be passed back as they are and show no host path the caller did not send.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import type { App } from '@mcpkit/core/server';
import { connect, textOf } from '@mcpkit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemApp } from '../src/server.js';
import type { Era, World } from './attacks-review-kit.js';
import { treeHash, world } from './harness.js';
import { ensureContentWorker } from './walk-support.js';

interface Hits {
  hits: { file: string; line: number }[];
  timedOut: boolean;
}

describe('search_content through a linked directory', () => {
  let w: World;
  /** The server's root, configured through a link to a directory outside the allowed tree. */
  let alias: string;
  let hidden: string;
  let linkedRoot: App;
  let plainRoot: App;
  let before: string;
  beforeAll(async () => {
    ensureContentWorker();
    w = await world();
    // Inside the root: real/sub/notes.txt, and link -> real (target allowed too).
    mkdirSync(join(w.allowed, 'real', 'sub'), { recursive: true });
    writeFileSync(join(w.allowed, 'real', 'sub', 'notes.txt'), 'first\nthe needle line\n');
    symlinkSync(join(w.allowed, 'real'), join(w.allowed, 'link'));
    // A root given as a link: alias -> hidden-host-dir, whose path the caller never sent.
    hidden = join(w.outside, 'hidden-host-dir');
    mkdirSync(join(hidden, 'docs'), { recursive: true });
    writeFileSync(join(hidden, 'docs', 'guide.md'), 'a needle here\n');
    alias = join(w.base, 'alias');
    symlinkSync(hidden, alias);
    plainRoot = createFilesystemApp({ roots: await RootSet.create([w.allowed]) });
    linkedRoot = createFilesystemApp({ roots: await RootSet.create([alias]) });
    before = await treeHash(w.base);
  });
  afterAll(async () => {
    // Searching changes nothing anywhere.
    expect(await treeHash(w.base)).toBe(before);
    await plainRoot.close();
    await linkedRoot.close();
    await w.cleanup();
  });

  const search = async (app: App, era: Era, args: Record<string, unknown>) => {
    const session = await connect(app, { era });
    try {
      const result = await session.callTool('search_content', { query: 'needle', ...args });
      expect(result.isError).toBeFalsy();
      return { text: textOf(result), structured: result.structuredContent as unknown as Hits };
    } finally {
      await session.close();
    }
  };

  describe.each(['legacy', 'modern'] as const)('%s era', (era: Era) => {
    it('names hits under a link inside the root by the link, not by its target', async () => {
      const path = join(w.allowed, 'link');
      const { text, structured } = await search(plainRoot, era, { path });
      expect(structured.hits.map((h) => `${h.file}:${h.line}`)).toEqual([
        `${join(path, 'sub', 'notes.txt')}:2`,
      ]);
      expect(text).toContain(`${join(path, 'sub', 'notes.txt')}:2: the needle line`);
      expect(text).not.toContain(join(w.allowed, 'real'));
    });

    it('keeps a relative path relative', async () => {
      const { text, structured } = await search(plainRoot, era, { path: 'link/sub' });
      expect(structured.hits.map((h) => h.file)).toEqual(['link/sub/notes.txt']);
      expect(text).toContain('link/sub/notes.txt:2:');
      expect(text).not.toContain(w.allowed);
    });

    it('never shows the host path behind a root configured through a link', async () => {
      const { text, structured } = await search(linkedRoot, era, { path: alias });
      expect(structured.hits.map((h) => h.file)).toEqual([join(alias, 'docs', 'guide.md')]);
      const all = JSON.stringify(structured) + text;
      expect(all).not.toContain(hidden);
      expect(all).not.toContain('hidden-host-dir');
    });

    it('names the file a time budget stopped in by the caller’s path too', async () => {
      writeFileSync(join(hidden, 'docs', 'slow.txt'), `${'a'.repeat(40)}!\n`);
      try {
        const { text, structured } = await search(linkedRoot, era, {
          path: alias,
          query: '(a+)+$',
          regex: true,
          timeoutMs: 300,
        });
        expect(structured.timedOut).toBe(true);
        expect(text).toContain(join(alias, 'docs', 'slow.txt'));
        expect(text).not.toContain('hidden-host-dir');
      } finally {
        rmSync(join(hidden, 'docs', 'slow.txt'));
      }
    });
  });
});
