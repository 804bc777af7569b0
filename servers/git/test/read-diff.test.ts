import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseNumstat } from '../src/git/parse-numstat.js';
import { unquotePath } from '../src/git/quoted-path.js';
import { allPages, forgetKeptOutput, mergeConflict } from './diff-pages-kit.js';
import { perTest } from './read-kit.js';
import { git } from './repo-kit.js';

describe('quoted paths', () => {
  it('unquotes the names git quotes, and leaves others as they are', () => {
    expect(unquotePath('"a/\\303\\251 \\"q\\" \\t\\\\"')).toBe('a/é "q" \t\\');
    expect(unquotePath('plain name')).toBe('plain name');
    expect(unquotePath('"odd \\q"')).toBe('"odd \\q"');
  });
});

describe.each(['legacy', 'modern'] as const)('diff tools, %s era', (era) => {
  const t = perTest(era);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows unstaged and staged changes apart, with an overview of the files', async () => {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'README.md'), '# App, changed\n');
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 3;\n');
    git(fx.repo, 'add', 'src/main.ts');
    const session = await t.connect(fx.app);

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
    const fx = await t.fixture();
    const session = await t.connect(fx.app);
    expect(textOf(await session.callTool('git_diff_unstaged', {}))).toBe('No unstaged changes.');
    expect(textOf(await session.callTool('git_diff_staged', {}))).toBe('No staged changes.');
  });

  it('diffs the work tree against a resolved target, with the context asked for and only the paths given', async () => {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 3;\n');
    const session = await t.connect(fx.app);
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
    const fx = await t.fixture();
    const files = Array.from({ length: 20 }, (_, f) => `file-${String(f).padStart(2, '0')}.txt`);
    const body = (f: number, tag: string) =>
      Array.from({ length: 60 }, (_, i) => `${tag} line ${i} of file ${f}, é 😀\n`).join('');
    for (const [f, name] of files.entries()) await writeFile(join(fx.repo, name), body(f, 'old'));
    git(fx.repo, 'add', '-A');
    git(fx.repo, 'commit', '-q', '-m', 'many files');
    for (const [f, name] of files.entries()) await writeFile(join(fx.repo, name), body(f, 'new'));
    const whole = git(fx.repo, 'diff', '--no-color').replace(/\n$/, '');
    const session = await t.connect(fx.app);
    const first = await session.callTool('git_diff_unstaged', { max_bytes: 2048 });
    expect((first.structuredContent as { files: unknown[] }).files).toHaveLength(20);
    const { diff, pages } = await allPages(session, 'git_diff_unstaged', { max_bytes: 2048 });
    expect(pages.length).toBeGreaterThan(20);
    expect(diff).toBe(whole);
  });

  it('pages through the diff of a merge conflict, which git prints before the other files', async () => {
    const fx = await t.fixture();
    await mergeConflict(fx.repo, (tag, i) => `${tag} row ${i}\n`);
    const session = await t.connect(fx.app);
    const { diff, pages } = await allPages(session, 'git_diff_unstaged', { max_bytes: 1024 });
    // Counted against the current branch, as the last of the two lines --numstat gives a conflict.
    const counted = parseNumstat(git(fx.repo, 'diff', '--numstat', '-z')).filter((f) => f.path === 'm.txt');
    expect(pages[0]).toMatch(new RegExp(`\\+${counted.at(-1)?.added} -${counted.at(-1)?.deleted} +m\\.txt`));
    expect(pages.some((p) => p.includes('[continuing diff --cc m.txt]'))).toBe(true);
    expect(pages.some((p) => p.includes('[continuing diff --git a/z.txt b/z.txt]'))).toBe(true);
    expect(diff).toBe(git(fx.repo, 'diff', '--no-color').replace(/\n$/, ''));
  });

  it('refuses a cursor after the diff changed, with other arguments, or forged', async () => {
    const fx = await t.fixture();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join('');
    await writeFile(join(fx.repo, 'README.md'), big);
    const session = await t.connect(fx.app);
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

    // Once the first page's output is no longer kept, the next page reads git again.
    forgetKeptOutput();
    await writeFile(join(fx.repo, 'README.md'), `changed\n${big}`);
    const moved = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor });
    expect(moved.isError).toBe(true);
    expect(textOf(moved)).toContain('The diff changed since the previous page');
  });

  it('shows a commit with its whole message and its diff against the first parent', async () => {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'src/main.ts'), 'export const a = 5;\n');
    git(
      fx.repo,
      'commit',
      '-q',
      '-am',
      'Change a\n\nBecause.\ncommit 0000000000000000000000000000000000000000',
    );
    const sha = git(fx.repo, 'rev-parse', 'HEAD').trim();
    const session = await t.connect(fx.app);

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
    const fx = await t.fixture();
    git(fx.repo, 'checkout', '-q', '-b', 'topic');
    await writeFile(join(fx.repo, 'topic.txt'), 'topic\n');
    git(fx.repo, 'add', 'topic.txt');
    git(fx.repo, 'commit', '-q', '-m', 'topic work');
    git(fx.repo, 'checkout', '-q', 'main');
    await writeFile(join(fx.repo, 'main.txt'), 'main\n');
    git(fx.repo, 'add', 'main.txt');
    git(fx.repo, 'commit', '-q', '-m', 'main work');
    git(fx.repo, 'merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic');
    const session = await t.connect(fx.app);
    const merge = await session.callTool('git_show', { revision: 'HEAD' });
    expect(merge.structuredContent).toMatchObject({ files: [{ path: 'topic.txt', added: 1, deleted: 0 }] });
    expect((merge.structuredContent as { commit: { parents: string[] } }).commit.parents).toHaveLength(2);
    expect(textOf(merge)).toMatch(/\nMerge: [0-9a-f]{12} [0-9a-f]{12}\n/);
    expect(textOf(merge)).toContain('+topic');
  });

  it('pages the diff of a large commit, the commit on the first page only', async () => {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'big.txt'), Array.from({ length: 300 }, (_, i) => `row ${i}\n`).join(''));
    git(fx.repo, 'add', 'big.txt');
    git(fx.repo, 'commit', '-q', '-m', 'big');
    const session = await t.connect(fx.app);
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

  it('names every kind of change, counts it as --numstat does, and pages through odd names', async () => {
    const fx = await t.fixture();
    const rows = (tag: string) => Array.from({ length: 80 }, (_, i) => `${tag} row ${i}\n`).join('');
    const texts = ['with space.txt', 'dir b/x b.txt', 'é-accent.txt', 'q"uote.txt', 'tab\there.txt'];
    const others = ['gone.txt', 'to-link.txt', 'moved-from.txt', 'mode.sh'];
    await mkdir(join(fx.repo, 'dir b'));
    for (const name of [...texts, ...others]) await writeFile(join(fx.repo, name), rows('old'));
    await writeFile(join(fx.repo, 'bin.dat'), Buffer.from([0, 1, 2, 3]));
    git(fx.repo, 'add', '-A');
    git(fx.repo, 'commit', '-q', '-m', 'odd names');
    for (const name of texts) await writeFile(join(fx.repo, name), rows('new'));
    await rm(join(fx.repo, 'gone.txt'));
    await rm(join(fx.repo, 'to-link.txt'));
    await symlink('with space.txt', join(fx.repo, 'to-link.txt'));
    git(fx.repo, 'mv', 'moved-from.txt', 'moved to.txt');
    await writeFile(join(fx.repo, 'moved to.txt'), `${rows('old')}one more\n`);
    await chmod(join(fx.repo, 'mode.sh'), 0o755);
    await writeFile(join(fx.repo, 'bin.dat'), Buffer.from([0, 9, 9, 9]));
    await writeFile(join(fx.repo, 'empty.txt'), '');
    git(fx.repo, 'add', '-A');
    // Headers without a/ and b/ would be ambiguous: the server pins them whatever this says.
    git(fx.repo, 'config', 'diff.noprefix', 'true');
    const session = await t.connect(fx.app);

    const first = await session.callTool('git_diff_staged', {});
    const numstat = parseNumstat(git(fx.repo, 'diff', '--cached', '--numstat', '-z'));
    expect(numstat.length).toBe(11);
    expect((first.structuredContent as { files: unknown[] }).files).toEqual(numstat);

    const pinned = ['--no-color', '--src-prefix=a/', '--dst-prefix=b/'];
    const staged = await allPages(session, 'git_diff_staged', { max_bytes: 1024 });
    expect(staged.diff).toBe(git(fx.repo, 'diff', '--cached', ...pinned).replace(/\n$/, ''));
    expect(staged.pages.length).toBeGreaterThan(11);
    for (const name of ['"a/q\\"uote.txt"', 'a/dir b/x b.txt', '"a/\\303\\251-accent.txt"']) {
      expect(
        staged.pages.some((p) => p.includes(`[continuing diff --git ${name}`)),
        name,
      ).toBe(true);
    }

    git(fx.repo, 'commit', '-q', '-m', 'odd changes');
    const shown = await allPages(session, 'git_show', { revision: 'HEAD', max_bytes: 1024 });
    const show = git(fx.repo, 'show', '--format=', '--diff-merges=first-parent', ...pinned, 'HEAD');
    expect(shown.diff).toBe(show.replace(/\n$/, ''));
  });

  it('resumes in the file a page stopped in, whatever changed before it, until that file leaves the diff', async () => {
    const fx = await t.fixture();
    const rows = (tag: string) => Array.from({ length: 200 }, (_, i) => `${tag} row ${i}\n`).join('');
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(fx.repo, name), rows('old'));
    git(fx.repo, 'add', '-A');
    git(fx.repo, 'commit', '-q', '-m', 'three files');
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(fx.repo, name), rows(name));
    const session = await t.connect(fx.app);

    // Page on until a page ends inside b.txt.
    let cursor: string | undefined;
    let text = '';
    do {
      const page = await session.callTool('git_diff_unstaged', {
        max_bytes: 1024,
        ...(cursor ? { cursor } : {}),
      });
      text = textOf(page);
      cursor = (page.structuredContent as { nextCursor?: string }).nextCursor;
    } while (cursor && !text.includes('+b.txt row'));
    expect(cursor).toBeDefined();

    // Once the first page's output is no longer kept, each page reads git again; a.txt was sent
    // already: changing it does not move where the next page starts.
    forgetKeptOutput();
    await writeFile(join(fx.repo, 'a.txt'), rows('a.txt, again'));
    const next = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor });
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(textOf(next)).toContain('[continuing diff --git a/b.txt b/b.txt]');
    const body = textOf(next).split('\n').slice(2, -1).join('\n');
    expect(git(fx.repo, 'diff', '--no-color')).toContain(body);
    const later = (next.structuredContent as { nextCursor?: string }).nextCursor;
    expect(later).toBeDefined();

    // b.txt reverted: the page cannot go on where it was.
    git(fx.repo, 'checkout', '--', 'b.txt');
    const gone = await session.callTool('git_diff_unstaged', { max_bytes: 1024, cursor: later });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).toContain('The diff changed since the previous page');
  });
});
