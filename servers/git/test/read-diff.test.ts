import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReadFixture, readFixture } from './read-kit.js';
import { git } from './repo-kit.js';

/** The diff lines of a page: without the title, overview, continuation and cursor lines. */
function diffPart(text: string, first: boolean): string {
  let lines = text.split('\n').slice(1);
  if (first) lines = lines.slice(lines.indexOf('') + 1);
  return lines.filter((l) => !l.startsWith('[')).join('\n');
}

describe.each(['legacy', 'modern'] as const)('diff tools, %s era', (era) => {
  let fx: ReadFixture;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx.cleanup();
  });

  it('shows unstaged and staged changes apart, with an overview of the files', async () => {
    fx = await readFixture();
    await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 3;\n');
    git(fx.repo, 'add', 'src/main.ts');
    session = await connect(fx.app, { era });

    const unstaged = await session.callTool('git_diff_unstaged', { repo_path: fx.repo });
    expect(unstaged.isError).toBeFalsy();
    expect(unstaged.structuredContent).toEqual({
      files: [{ path: 'README.md', added: 1, deleted: 1 }],
      page: 1,
    });
    const text = textOf(unstaged);
    expect(text).toMatch(/^Unstaged changes:\n/);
    expect(text).toContain('1 file changed, 1 insertion(s)(+), 1 deletion(s)(-)');
    expect(text).toContain('-# App\n+# App, changed');
    expect(text).not.toContain('src/main.ts');

    const staged = await session.callTool('git_diff_staged', {});
    expect(textOf(staged)).toContain('+export const a = 3;');
    expect(textOf(staged)).not.toContain('README.md');
    expect(staged.structuredContent).toMatchObject({ files: [{ path: 'src/main.ts' }] });
  });

  it('says so when nothing changed', async () => {
    fx = await readFixture();
    session = await connect(fx.app, { era });
    expect(textOf(await session.callTool('git_diff_unstaged', {}))).toBe('No unstaged changes.');
    expect(textOf(await session.callTool('git_diff_staged', {}))).toBe('No staged changes.');
  });

  it('diffs the work tree against a resolved target, with the context asked for and only the paths given', async () => {
    fx = await readFixture();
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 3;\n');
    session = await connect(fx.app, { era });
    const all = await session.callTool('git_diff', { target: 'HEAD~2', context_lines: 0 });
    expect(all.structuredContent).toMatchObject({
      files: [
        { path: 'docs/guide.md', added: 1, deleted: 0 },
        { path: 'src/main.ts', added: 1, deleted: 1 },
      ],
    });
    expect(textOf(all)).toMatch(/^Diff with HEAD~2:/);
    expect(textOf(all)).toContain('@@ -1 +1 @@\n-export const a = 1;\n+export const a = 3;');

    const narrowed = await session.callTool('git_diff', { target: 'main~2', paths: ['src'] });
    expect(narrowed.structuredContent).toMatchObject({ files: [{ path: 'src/main.ts' }] });
    expect(textOf(narrowed)).not.toContain('guide.md');

    const missing = await session.callTool('git_diff', { target: 'no-such-branch' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('No commit is named "no-such-branch"');
  });

  it('pages a large diff by file, hunk and line, and the pages add up to the whole diff', async () => {
    fx = await readFixture();
    const files = Array.from({ length: 20 }, (_, f) => `file-${String(f).padStart(2, '0')}.txt`);
    const body = (f: number, tag: string) =>
      Array.from({ length: 60 }, (_, i) => `${tag} line ${i} of file ${f}\n`).join('');
    for (const [f, name] of files.entries()) await writeFile(join(fx.repo, name), body(f, 'old'));
    git(fx.repo, 'add', '-A');
    git(fx.repo, 'commit', '-q', '-m', 'many files');
    for (const [f, name] of files.entries()) await writeFile(join(fx.repo, name), body(f, 'new'));
    const whole = git(fx.repo, 'diff', '--no-color').replace(/\n$/, '');
    session = await connect(fx.app, { era });

    const parts: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await session.callTool('git_diff_unstaged', {
        max_bytes: 2048,
        ...(cursor ? { cursor } : {}),
      });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { page: number; nextCursor?: string; files?: unknown[] };
      pages++;
      expect(structured.page).toBe(pages);
      if (pages === 1) expect(structured.files).toHaveLength(20);
      else expect(structured.files).toBeUndefined();
      parts.push(diffPart(textOf(result), pages === 1));
      cursor = structured.nextCursor;
      if (cursor) expect(textOf(result)).toContain(`cursor "${cursor}"`);
    } while (cursor && pages < 200);
    expect(pages).toBeGreaterThan(20);
    expect(parts.join('\n')).toBe(whole);
  });

  it('refuses a cursor after the diff changed, with other arguments, or forged', async () => {
    fx = await readFixture();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join('');
    await writeFile(join(fx.repo, 'README.md'), big);
    session = await connect(fx.app, { era });
    const first = await session.callTool('git_diff_unstaged', { max_bytes: 1024 });
    const cursor = (first.structuredContent as { nextCursor?: string }).nextCursor;
    expect(cursor).toBeDefined();

    const other = await session.callTool('git_diff_unstaged', { max_bytes: 1024, context_lines: 1, cursor });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('made for other arguments');

    const forged = await session.callTool('git_diff_unstaged', { cursor: `${cursor}x` });
    expect(forged.isError).toBe(true);
    expect(textOf(forged)).toContain('Invalid or expired cursor');

    const elsewhere = await session.callTool('git_diff_staged', { cursor });
    expect(elsewhere.isError).toBe(true);

    await writeFile(join(fx.repo, 'README.md'), `changed\n${big}`);
    const moved = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor });
    expect(moved.isError).toBe(true);
    expect(textOf(moved)).toContain('The diff changed since the previous page');
  });

  it('shows a commit with its whole message and its diff against the first parent', async () => {
    fx = await readFixture();
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 5;\n');
    git(
      fx.repo,
      'commit',
      '-q',
      '-am',
      'Change a\n\nBecause.\ncommit 0000000000000000000000000000000000000000',
    );
    const sha = git(fx.repo, 'rev-parse', 'HEAD').trim();
    session = await connect(fx.app, { era });

    const shown = await session.callTool('git_show', { revision: 'HEAD' });
    expect(shown.isError).toBeFalsy();
    expect(shown.structuredContent).toMatchObject({
      commit: {
        sha,
        author: 'Test User',
        email: 'test@example.com',
        subject: 'Change a',
        body: 'Because.\ncommit 0000000000000000000000000000000000000000',
        date: '2026-01-01T00:00:00+00:00',
      },
      files: [{ path: 'src/main.ts', added: 1, deleted: 1 }],
      page: 1,
    });
    const text = textOf(shown);
    expect(text).toContain(`commit ${sha}\nAuthor: Test User <test@example.com>`);
    // The message is indented: its own "commit" line cannot pass for a header.
    expect(text).toContain('\n    commit 0000000000000000000000000000000000000000');
    expect(text).toContain('-export const a = 2;\n+export const a = 5;');

    const root = await session.callTool('git_show', { revision: 'HEAD~3' });
    expect(root.structuredContent).toMatchObject({
      commit: { subject: 'commit 1', parents: [] },
      files: [{ path: 'README.md' }, { path: 'src/main.ts' }],
    });
  });

  it('shows a merge against its first parent', async () => {
    fx = await readFixture();
    git(fx.repo, 'checkout', '-q', '-b', 'topic');
    await writeFile(join(fx.repo, 'topic.txt'), 'topic\n');
    git(fx.repo, 'add', 'topic.txt');
    git(fx.repo, 'commit', '-q', '-m', 'topic work');
    git(fx.repo, 'checkout', '-q', 'main');
    await writeFile(join(fx.repo, 'main.txt'), 'main\n');
    git(fx.repo, 'add', 'main.txt');
    git(fx.repo, 'commit', '-q', '-m', 'main work');
    git(fx.repo, 'merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic');
    session = await connect(fx.app, { era });
    const merge = await session.callTool('git_show', { revision: 'HEAD' });
    expect(merge.structuredContent).toMatchObject({ files: [{ path: 'topic.txt', added: 1, deleted: 0 }] });
    expect((merge.structuredContent as { commit: { parents: string[] } }).commit.parents).toHaveLength(2);
    expect(textOf(merge)).toMatch(/\nMerge: [0-9a-f]{12} [0-9a-f]{12}\n/);
    expect(textOf(merge)).toContain('+topic');
  });

  it('pages the diff of a large commit, the commit on the first page only', async () => {
    fx = await readFixture();
    await writeFile(join(fx.repo, 'big.txt'), Array.from({ length: 300 }, (_, i) => `row ${i}\n`).join(''));
    git(fx.repo, 'add', 'big.txt');
    git(fx.repo, 'commit', '-q', '-m', 'big');
    session = await connect(fx.app, { era });
    const first = await session.callTool('git_show', { revision: 'main', max_bytes: 1024 });
    const one = first.structuredContent as { commit?: { subject: string }; nextCursor?: string };
    expect(one.commit?.subject).toBe('big');
    expect(one.nextCursor).toBeDefined();
    const second = await session.callTool('git_show', {
      revision: 'main',
      max_bytes: 1024,
      cursor: one.nextCursor,
    });
    expect(second.structuredContent).toMatchObject({ page: 2 });
    expect((second.structuredContent as { commit?: unknown }).commit).toBeUndefined();
    expect(textOf(second)).toContain('[continuing diff --git a/big.txt b/big.txt]');
  });
});
