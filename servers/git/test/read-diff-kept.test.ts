/**
 * A diff's later pages are cut from the output its first page read, while it is kept: the same
 * pages git gives when it runs again, of the first page's moment, and git again once they are read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allPages, forgetKeptOutput, mergeConflict } from './diff-pages-kit.js';
import { perTest } from './read-kit.js';
import { git } from './repo-kit.js';

describe.each(['legacy', 'modern'] as const)('diff pages from the kept output, %s era', (era) => {
  const t = perTest(era);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("cuts the same pages from the first page's output as git gives when it runs again", async () => {
    const fx = await t.fixture();
    // Many files with wide characters, a merge conflict git prints ahead of them, and a commit.
    await mergeConflict(fx.repo, (tag, i) => `${tag} row ${i}, é 😀\n`);
    const session = await t.connect(fx.app);
    for (const [tool, args] of [
      ['git_diff_unstaged', { max_bytes: 1024 }],
      ['git_show', { revision: 'HEAD~1', max_bytes: 1024 }],
      ['git_diff', { target: 'HEAD~2', max_bytes: 1500 }],
    ] as const) {
      const kept = await allPages(session, tool, args);
      const rerun = await allPages(session, tool, args, forgetKeptOutput);
      expect(kept.pages.length, tool).toBeGreaterThan(3);
      expect(rerun.pages, tool).toEqual(kept.pages);
    }
  });

  it("reads a diff's later pages from its first page's run, and runs git again once they are read", async () => {
    const fx = await t.fixture();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join('');
    await writeFile(join(fx.repo, 'README.md'), big);
    const before = git(fx.repo, 'diff', '--no-color').replace(/\n$/, '');
    const session = await t.connect(fx.app);
    const first = await session.callTool('git_diff_unstaged', { max_bytes: 1024 });
    const second = (first.structuredContent as { nextCursor?: string }).nextCursor;
    expect(second).toBeDefined();
    // Changed where the next page resumes: the pages still come from the first page's moment.
    await writeFile(join(fx.repo, 'README.md'), `changed\n${big}`);
    const parts = [textOf(first).slice(textOf(first).indexOf('\ndiff --') + 1)];
    let cursor = second;
    while (cursor) {
      const page = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor });
      expect(page.isError, textOf(page)).toBeFalsy();
      parts.push(textOf(page).split('\n').slice(1).join('\n'));
      cursor = (page.structuredContent as { nextCursor?: string }).nextCursor;
    }
    const lines = parts
      .join('\n')
      .split('\n')
      .filter((l) => !l.startsWith('['));
    expect(lines.join('\n')).toBe(before);
    // The last page read, that output is gone: the second page again runs git, and sees the change.
    const again = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor: second });
    expect(textOf(again)).toContain('The diff changed since the previous page');
  });
});
