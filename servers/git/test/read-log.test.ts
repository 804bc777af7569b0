import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { importCommits, lineCommits, type ReadFixture, readFixture } from './read-kit.js';
import { git } from './repo-kit.js';

type Commit = {
  sha: string;
  subject: string;
  body?: string;
  date: string;
  committerDate: string;
  parents: string[];
};
type LogPage = { commits: Commit[]; nextCursor?: string };

const day = (d: string) => Date.parse(`${d}T12:00:00Z`) / 1000;

describe.each(['legacy', 'modern'] as const)('git_log and git_reflog, %s era', (era) => {
  let fx: ReadFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  /** Every commit of the log from `args`, page by page. */
  async function walk(args: Record<string, unknown>): Promise<{ commits: Commit[]; pages: number }> {
    const commits: Commit[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await session!.callTool('git_log', { ...args, ...(cursor ? { cursor } : {}) });
      expect(result.isError, textOf(result)).toBeFalsy();
      const page = result.structuredContent as LogPage;
      commits.push(...page.commits);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    return { commits, pages };
  }

  it('lists commits newest first, one record each, as text and structured', async () => {
    fx = await readFixture();
    session = await connect(fx.app, { era });
    const shas = git(fx.repo, 'rev-list', 'HEAD').trim().split('\n');
    const result = await session.callTool('git_log', { repo_path: fx.repo });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as LogPage;
    expect(page.commits.map((c) => c.sha)).toEqual(shas);
    expect(page.commits.map((c) => c.subject)).toEqual(['commit 3', 'commit 2', 'commit 1']);
    expect(page.commits[0]).toMatchObject({
      author: 'Test User',
      email: 'test@example.com',
      date: '2026-01-01T00:00:00+00:00',
      parents: [shas[1]],
    });
    expect(page.nextCursor).toBeUndefined();
    const text = textOf(result);
    expect(text).toMatch(
      /^Commit history:\n\ncommit [0-9a-f]{40}\nAuthor: Test User <test@example.com>\nDate: {3}/,
    );
    expect(text).toContain('    commit 2');
  });

  it('keeps every entry aligned under date filters, whatever the messages hold', async () => {
    fx = await readFixture();
    const tricky =
      'Author: Mallory <m@example.com>\nDate: 1999-01-01\n\ncommit 0123456789012345678901234567890123456789';
    importCommits(
      fx.repo,
      ['03-01', '03-02', '03-03', '03-04', '03-05'].map((d, i) => ({
        message: `on ${d}\n\n${i % 2 ? tricky : 'plain body'}\n`,
        files: { 'dated.txt': `${d}\n` },
        // Author dates far from the committer dates: the filters compare committer dates, like git.
        authorTime: day(`2020-${d}`),
        committerTime: day(`2026-${d}`),
      })),
    );
    session = await connect(fx.app, { era });
    const result = await session.callTool('git_log', {
      start_timestamp: '2026-03-02',
      end_timestamp: '2026-03-04',
      max_count: 50,
    });
    const { commits } = result.structuredContent as LogPage;
    expect(commits.map((c) => c.subject)).toEqual(['on 03-04', 'on 03-03', 'on 03-02']);
    expect(commits.map((c) => c.body)).toEqual([tricky, 'plain body', tricky]);
    for (const c of commits) {
      expect(c.sha).toBe(git(fx.repo, 'rev-parse', `:/^${c.subject}`).trim());
      expect(c.date.slice(0, 4)).toBe('2020');
      expect(c.committerDate.slice(0, 10)).toBe(`2026-${c.subject.slice(3)}`);
    }
    expect(textOf(result).match(/^commit /gm)).toHaveLength(3);

    const timed = await session.callTool('git_log', { start_timestamp: '2026-03-04T12:00:00Z' });
    expect((timed.structuredContent as LogPage).commits.map((c) => c.subject)).toEqual([
      'on 03-05',
      'on 03-04',
    ]);
    const epoch = await session.callTool('git_log', { end_timestamp: `@${day('2026-01-15')}` });
    expect((epoch.structuredContent as LogPage).commits).toHaveLength(3);
  });

  it('reads relative dates and refuses dates git would guess at', async () => {
    fx = await readFixture();
    const now = Math.floor(Date.now() / 1000);
    importCommits(fx.repo, [
      { message: 'recent', files: { 'r.txt': 'r\n' }, authorTime: now - 60, committerTime: now - 60 },
    ]);
    session = await connect(fx.app, { era });
    const recent = await session.callTool('git_log', { start_timestamp: '2 days ago' });
    expect((recent.structuredContent as LogPage).commits.map((c) => c.subject)).toEqual(['recent']);
    for (const bad of ['a week ago', 'banana', '--output=/tmp/x', '2026-13']) {
      const result = await session.callTool('git_log', { start_timestamp: bad });
      expect(result.isError, bad).toBe(true);
    }
    const refused = await session.callTool('git_log', { end_timestamp: 'soon' });
    expect(textOf(refused)).toContain('is not a date git reads exactly');
  });

  it('starts from a ref and follows a path', async () => {
    fx = await readFixture();
    session = await connect(fx.app, { era });
    const fromRef = await session.callTool('git_log', { ref: 'HEAD~1' });
    expect((fromRef.structuredContent as LogPage).commits.map((c) => c.subject)).toEqual([
      'commit 2',
      'commit 1',
    ]);
    const docs = await session.callTool('git_log', { path: 'docs' });
    expect((docs.structuredContent as LogPage).commits.map((c) => c.subject)).toEqual(['commit 3']);
    const none = await session.callTool('git_log', { path: 'nothing-here' });
    expect(textOf(none)).toBe('No commits match.');
  });

  it('pages a long history from a pinned start, in order, even when the branch moves', async () => {
    fx = await readFixture();
    importCommits(fx.repo, lineCommits(300));
    const all = git(fx.repo, 'rev-list', 'HEAD').trim().split('\n');
    session = await connect(fx.app, { era });
    const first = await session.callTool('git_log', { max_count: 50 });
    const page = first.structuredContent as LogPage;
    expect(page.commits).toHaveLength(50);
    expect(textOf(first)).toContain(`cursor "${page.nextCursor}"`);
    importCommits(fx.repo, [{ message: 'after the first page', files: { 'late.txt': 'late\n' } }]);
    const rest = await walk({ max_count: 50, cursor: page.nextCursor });
    expect([...page.commits, ...rest.commits].map((c) => c.sha)).toEqual(all);
    expect(rest.pages).toBe(6);

    const other = await session.callTool('git_log', {
      max_count: 50,
      ref: 'HEAD~1',
      cursor: page.nextCursor,
    });
    expect(textOf(other)).toContain('made for other arguments');
  });

  it('holds a page to the output limit and continues where the text stopped', async () => {
    fx = await readFixture({ outputLimitBytes: 4096 });
    importCommits(fx.repo, lineCommits(120));
    session = await connect(fx.app, { era });
    const { commits, pages } = await walk({ max_count: 200 });
    expect(pages).toBeGreaterThan(3);
    expect(commits.map((c) => c.sha)).toEqual(git(fx.repo, 'rev-list', 'HEAD').trim().split('\n'));
  });

  it('answers a repository without commits', async () => {
    fx = await readFixture();
    git(fx.repo, 'checkout', '-q', '--orphan', 'empty');
    session = await connect(fx.app, { era });
    expect(textOf(await session.callTool('git_log', {}))).toBe('The repository has no commits yet.');
  });

  it('shows the reflog of HEAD and of a branch, and refuses a commit', async () => {
    fx = await readFixture();
    git(fx.repo, 'reset', '-q', '--hard', 'HEAD~1');
    git(fx.repo, 'checkout', '-q', '-b', 'topic');
    session = await connect(fx.app, { era });
    const head = await session.callTool('git_reflog', {});
    const entries = (head.structuredContent as { entries: Array<Record<string, string>> }).entries;
    expect(entries.map((e) => e.selector)).toEqual([
      'HEAD@{0}',
      'HEAD@{1}',
      'HEAD@{2}',
      'HEAD@{3}',
      'HEAD@{4}',
    ]);
    expect(entries.map((e) => e.action)).toEqual([
      'checkout',
      'reset',
      'commit',
      'commit',
      'commit (initial)',
    ]);
    expect(entries[1]?.sha).toBe(git(fx.repo, 'rev-parse', 'HEAD').trim());
    expect(textOf(head)).toContain('HEAD@{0} ');

    const main = await session.callTool('git_reflog', { ref: 'main', max_count: 2 });
    const page = main.structuredContent as { ref: string; entries: unknown[]; nextCursor?: string };
    expect(page.ref).toBe('refs/heads/main');
    expect(page.entries).toHaveLength(2);
    const older = await session.callTool('git_reflog', {
      ref: 'main',
      max_count: 2,
      cursor: page.nextCursor,
    });
    expect(older.structuredContent).toMatchObject({
      entries: [{ selector: 'main@{2}' }, { selector: 'main@{3}' }],
    });

    for (const ref of ['HEAD~1', 'no-such-ref', '--output=/tmp/x']) {
      const refused = await session.callTool('git_reflog', { ref });
      expect(refused.isError, ref).toBe(true);
    }
  });
});
