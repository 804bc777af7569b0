import { appendFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { importCommits, lineCommits, type ReadFixture, readFixture } from './read-kit.js';
import { git } from './repo-kit.js';

type Line = { line: number; sha: string; author: string; date: string; summary: string; text: string };
type Blame = { path: string; lines: Line[]; nextStartLine?: number };

describe.each(['legacy', 'modern'] as const)('git_blame, %s era', (era) => {
  let fx: ReadFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('names the commit of each line of the work tree file, uncommitted lines included', async () => {
    fx = await readFixture();
    await appendFile(join(fx.repo, 'README.md'), 'A new line.\n');
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_blame', { path: 'README.md' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const first = git(fx.repo, 'rev-list', '--max-parents=0', 'HEAD').trim();
    expect(result.structuredContent).toEqual({
      path: 'README.md',
      lines: [
        {
          line: 1,
          sha: first,
          author: 'Test User',
          date: '2026-01-01T00:00:00+00:00',
          summary: 'commit 1',
          text: '# App',
        },
        expect.objectContaining({ line: 2, sha: '0'.repeat(40), text: 'A new line.' }),
      ],
    });
    expect(textOf(result)).toBe(
      [
        'Blame of README.md:',
        `${first.slice(0, 12)} Test User 2026-01-01 commit 1`,
        '  1 | # App',
        '000000000000 not committed yet',
        '  2 | A new line.',
      ].join('\n'),
    );
  });

  it('blames at a ref, a range of lines, grouped by commit', async () => {
    fx = await readFixture();
    importCommits(fx.repo, lineCommits(30));
    session = await connect(fx.app, { era });
    const old = await session.callTool('git_blame', { path: 'src/main.ts', ref: 'HEAD~32' });
    expect((old.structuredContent as Blame).lines).toMatchObject([
      { summary: 'commit 1', text: 'export const a = 1;' },
    ]);

    const range = await session.callTool('git_blame', { path: 'history.txt', start_line: 5, end_line: 7 });
    const { lines } = range.structuredContent as Blame;
    expect(lines.map((l) => [l.line, l.summary, l.text])).toEqual([
      [5, 'add line 5', 'line 5'],
      [6, 'add line 6', 'line 6'],
      [7, 'add line 7', 'line 7'],
    ]);
    expect(textOf(range).split('\n')).toHaveLength(7);

    const open = await session.callTool('git_blame', { path: 'history.txt', start_line: 29 });
    expect((open.structuredContent as Blame).lines.map((l) => l.line)).toEqual([29, 30]);
  });

  it('pages a long blame by line when it exceeds the output limit', async () => {
    fx = await readFixture({ outputLimitBytes: 4096 });
    importCommits(fx.repo, lineCommits(300));
    session = await connect(fx.app, { era });
    const seen: number[] = [];
    let start: number | undefined = 1;
    let calls = 0;
    while (start !== undefined && calls < 100) {
      const result = await session.callTool('git_blame', { path: 'history.txt', start_line: start });
      const page = result.structuredContent as Blame;
      seen.push(...page.lines.map((l) => l.line));
      if (page.nextStartLine) expect(textOf(result)).toContain(`start_line=${page.nextStartLine}`);
      start = page.nextStartLine;
      calls++;
    }
    expect(calls).toBeGreaterThan(3);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('reports progress to a client that asks, for blame, log and diffs', async () => {
    fx = await readFixture();
    await appendFile(join(fx.repo, 'README.md'), 'more\n');
    session = await connect(fx.app, { era });
    for (const [tool, args] of [
      ['git_blame', { path: 'README.md' }],
      ['git_log', {}],
      ['git_diff_unstaged', {}],
      ['git_show', { revision: 'HEAD' }],
    ] as const) {
      const reports: Array<{ progress: number; total?: number }> = [];
      const result = await session.callTool(tool, args, { onprogress: (p) => reports.push(p) });
      expect(result.isError, tool).toBeFalsy();
      const last = reports.at(-1);
      expect(last, tool).toBeDefined();
      expect(last?.progress, tool).toBe(last?.total);
    }
  });

  it('refuses what is not a file of the work tree, without naming host paths', async () => {
    fx = await readFixture();
    await symlink(join(fx.outside, 'secret.txt'), join(fx.repo, 'leak.txt'));
    session = await connect(fx.app, { era });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: 'leak.txt' }, 'leads outside the allowed directories'],
      [{ path: '../../outside/secret.txt' }, 'outside the repository'],
      [{ path: 'missing.txt' }, 'git blame failed'],
      [{ path: 'README.md', ref: 'nope' }, 'No commit is named "nope"'],
      [{ path: 'README.md', start_line: 3, end_line: 2 }, 'end_line 2 is before start_line 3'],
      [{ path: 'README.md', start_line: 50 }, 'git blame failed'],
      [{ path: '.' }, 'not the work tree itself'],
    ];
    for (const [args, message] of cases) {
      const result = await session.callTool('git_blame', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      const text = textOf(result);
      expect(text).toContain(message);
      expect(text).not.toContain(fx.base);
      expect(text).not.toContain('top secret');
    }
    // An absolute path is refused too; the sentence quotes only what the client sent.
    const absolute = await session.callTool('git_blame', { path: join(fx.outside, 'secret.txt') });
    expect(textOf(absolute)).toBe(
      `The path "${join(fx.outside, 'secret.txt')}" is outside the repository's work tree.`,
    );
  });
});
