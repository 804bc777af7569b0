import { execFileSync } from 'node:child_process';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { importCommits, lineCommits, type ReadFixture, readFixture } from './read-kit.js';
import { FIXTURE_ENV, git } from './repo-kit.js';

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

/**
 * Six rounds of: a side branch of three commits (one dated before its parent, as a skewed clock
 * makes it), two commits on main meanwhile, and a merge of the side branch into main. Every commit
 * is one hour after the one before, from 2026-02-01, except the skewed one.
 */
function importMerges(dir: string): void {
  const base = git(dir, 'rev-parse', 'HEAD').trim();
  const chunks: string[] = [];
  let mark = 0;
  let time = day('2026-02-01');
  let main = base;
  const commit = (
    ref: string,
    from: string,
    files: string[],
    options: { merge?: string; skew?: boolean } = {},
  ) => {
    mark++;
    time += 3600;
    const when = options.skew ? time - 30 * 86_400 : time;
    const message = `${ref} ${mark}\n`;
    chunks.push(
      `commit refs/heads/${ref}\nmark :${mark}\n`,
      `committer Test User <test@example.com> ${when} +0000\n`,
      `data ${message.length}\n${message}`,
      `from ${from}\n`,
      ...(options.merge ? [`merge ${options.merge}\n`] : []),
      ...files.map((file) => `M 100644 inline ${file}\ndata ${`${mark}\n`.length}\n${mark}\n`),
      '\n',
    );
    return `:${mark}`;
  };
  for (let round = 0; round < 6; round++) {
    let side = commit('side', main, ['side.txt']);
    side = commit('side', side, ['side.txt'], { skew: round % 2 === 0 });
    side = commit('side', side, ['side.txt']);
    main = commit('main', main, ['main.txt']);
    main = commit('main', main, ['main.txt']);
    // The merge takes both files, so a log of either path goes through it to both sides.
    main = commit('main', main, ['main.txt', 'side.txt'], { merge: side });
  }
  execFileSync('git', ['fast-import', '--quiet', '--force'], {
    cwd: dir,
    env: FIXTURE_ENV,
    input: chunks.join(''),
  });
  git(dir, 'reset', '-q', '--hard', 'main');
}

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

  it('pages a history of merges and skewed clocks exactly as git walks it, under every filter', async () => {
    fx = await readFixture();
    importMerges(fx.repo);
    session = await connect(fx.app, { era });
    const revList = (...args: string[]) =>
      git(fx.repo, 'rev-list', ...args)
        .trim()
        .split('\n');
    const shas = async (args: Record<string, unknown>) => (await walk(args)).commits.map((c) => c.sha);

    const all = revList('HEAD');
    expect(all).toHaveLength(39);
    expect(await shas({ max_count: 3 })).toEqual(all);
    expect(await shas({ max_count: 1 })).toEqual(all);
    expect(await shas({ max_count: 4, ref: 'side' })).toEqual(revList('side'));
    const touched = revList('HEAD', '--', 'side.txt');
    expect(touched.length).toBeGreaterThan(20);
    expect(await shas({ max_count: 2, path: 'side.txt' })).toEqual(touched);
    const since = '2026-02-02T00:00:00Z';
    const until = '2026-02-03T00:00:00Z';
    const dated = revList(`--since=${since}`, `--until=${until}`, 'HEAD');
    expect(dated.length).toBeGreaterThan(10);
    expect(await shas({ max_count: 2, start_timestamp: since, end_timestamp: until })).toEqual(dated);
  });

  it('continues a straight history from the next commit, with nothing to skip', async () => {
    fx = await readFixture();
    importCommits(fx.repo, lineCommits(30));
    session = await connect(fx.app, { era });
    const all = git(fx.repo, 'rev-list', 'HEAD').trim().split('\n');
    const first = await session.callTool('git_log', { max_count: 10 });
    const cursor = (first.structuredContent as LogPage).nextCursor;
    expect(cursor).toBeDefined();
    expect(fx.app.cursors.decode('git_log', cursor as string)).toMatchObject({ h: all[10], s: 0 });
    const second = await session.callTool('git_log', { max_count: 10, cursor });
    expect((second.structuredContent as LogPage).commits.map((c) => c.sha)).toEqual(all.slice(10, 20));
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
