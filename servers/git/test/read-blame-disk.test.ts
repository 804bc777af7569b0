/**
 * git_blame in the work tree reads the line text in a run of its own, before the blame. Blame
 * reads the file on disk; the text must be of that same file, never of the staged copy the index
 * vouches for (assume-unchanged, skip-worktree, a stat check that cannot see a same-size edit), nor
 * of the file as it was before someone saved it between the two runs. Each case compares the
 * answer with what `git blame --porcelain` says in one run.
 */
import { existsSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseBlame } from '../src/git/parse-blame.js';
import { runs } from './git-runs.js';
import { perTest, type ReadFixture } from './read-kit.js';
import { git } from './repo-kit.js';

/** Something the test does just before the server starts a given git run. */
const hooks = vi.hoisted(() => ({ before: undefined as ((args: readonly string[]) => void) | undefined }));

vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  const { recording } = await import('./git-runs.js');
  const recorded = recording(real.runProcess);
  return {
    ...real,
    runProcess: ((command, args, options) => {
      hooks.before?.(args);
      return recorded(command, args, options);
    }) as typeof real.runProcess,
  };
});

type Line = { line: number; sha: string; text: string };

/** The line numbers, commits and texts of `lines`. */
const shape = (lines: readonly Line[]) => lines.map(({ line, sha, text }) => ({ line, sha, text }));

/** The tool's lines for `path` in the work tree, with the blame forms the call ran. */
async function blamed(session: TestSession, path: string) {
  const earlier = runs.length;
  const result = await session.callTool('git_blame', { path });
  expect(result.isError, textOf(result)).toBeFalsy();
  const blames = runs.slice(earlier).filter((r) => r.args.includes('blame'));
  return {
    lines: shape((result.structuredContent as { lines: Line[] }).lines),
    text: textOf(result),
    forms: blames.map((r) => (r.args.includes('--incremental') ? 'incremental' : 'porcelain')),
  };
}

/** What `git blame --porcelain` says about the work tree file. */
function porcelain(dir: string, path: string): Line[] {
  return shape(parseBlame(git(dir, 'blame', '--porcelain', '--', path)));
}

const NOT_YET = '0'.repeat(40);

describe.each(['legacy', 'modern'] as const)('git_blame reads the file on disk, %s era', (era) => {
  const t = perTest(era);
  afterEach(() => {
    hooks.before = undefined;
  });

  /** `f` committed as a, b, c, then edited on disk to a, EVIL, c: the same length. */
  async function edited(): Promise<ReadFixture> {
    const fx = await t.fixture();
    await writeFile(join(fx.repo, 'f'), 'a\nb\nc\n');
    git(fx.repo, 'add', 'f');
    git(fx.repo, 'commit', '-q', '-m', 'abc');
    await writeFile(join(fx.repo, 'f'), 'a\nEVIL\nc\n');
    return fx;
  }

  it.each([
    ['assume-unchanged', '--assume-unchanged'],
    ['skip-worktree', '--skip-worktree'],
  ])('shows the edited line of a file marked %s, not the staged one', async (_, flag) => {
    const fx = await edited();
    git(fx.repo, 'update-index', flag, 'f');
    const session = await t.connect(fx.app);
    const { lines, text, forms } = await blamed(session, 'f');
    expect(lines).toEqual(porcelain(fx.repo, 'f'));
    expect(lines[1]).toEqual({ line: 2, sha: NOT_YET, text: 'EVIL' });
    expect(text).not.toMatch(/\| b$/m);
    // The incremental run gave the commits; its text was the staged copy, so porcelain answered.
    expect(forms).toEqual(['incremental', 'porcelain']);
  });

  it('shows a same-size edit the stat check cannot see, under an ident attribute', async () => {
    const fx = await t.fixture();
    const repo = fx.repo;
    git(repo, 'config', 'core.checkStat', 'minimal');
    git(repo, 'config', 'core.trustctime', 'false');
    await writeFile(join(repo, '.git', 'info', 'attributes'), 'f ident\n');
    const file = join(repo, 'f');
    // A time well before the index is written, so git does not re-read the file as racily clean.
    const old = new Date('2020-01-01T00:00:00Z');
    await writeFile(file, 'a\nb\nc\n');
    utimesSync(file, old, old);
    git(repo, 'add', 'f');
    git(repo, 'commit', '-q', '-m', 'abc');
    await writeFile(file, 'a\nX\nc\n');
    utimesSync(file, old, old);
    // The premise: git's own status sees no change.
    expect(git(repo, 'status', '--porcelain', '--', 'f')).toBe('');
    const session = await t.connect(fx.app);
    const { lines } = await blamed(session, 'f');
    expect(lines).toEqual(porcelain(repo, 'f'));
    expect(lines[1]).toEqual({ line: 2, sha: NOT_YET, text: 'X' });
  });

  it.each([
    ['before the blame', 'blame'],
    ['after the blame', 'hash-object'],
  ])('answers with one version of a file saved again %s', async (_, run) => {
    const fx = await edited();
    const session = await t.connect(fx.app);
    // Saved (same length) just before the run named: the text read first is no longer the file.
    hooks.before = (args) => {
      if (!args.includes(run)) return;
      hooks.before = undefined;
      writeFileSync(join(fx.repo, 'f'), 'a\nNEW!\nc\n');
    };
    const { lines, forms } = await blamed(session, 'f');
    expect(lines).toEqual(porcelain(fx.repo, 'f'));
    expect(lines[1]).toEqual({ line: 2, sha: NOT_YET, text: 'NEW!' });
    expect(forms).toEqual(['incremental', 'porcelain']);
  });

  it('keeps to one incremental run when the file on disk is the text read', async () => {
    const fx = await edited();
    const session = await t.connect(fx.app);
    const { lines, forms } = await blamed(session, 'f');
    expect(lines).toEqual(porcelain(fx.repo, 'f'));
    expect(forms).toEqual(['incremental']);
  });

  it('hashes the file on disk without running the clean filter the repository declares', async () => {
    const fx = await edited();
    const marker = join(fx.base, 'ran');
    await writeFile(join(fx.repo, '.git', 'info', 'attributes'), 'f filter=evil\n');
    git(fx.repo, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    const session = await t.connect(fx.app);
    const earlier = runs.length;
    const { lines, forms } = await blamed(session, 'f');
    expect(lines[1]).toEqual({ line: 2, sha: NOT_YET, text: 'EVIL' });
    expect(forms).toEqual(['incremental']);
    // The file was hashed, and no filter ran for it.
    expect(runs.slice(earlier).some((r) => r.args.includes('hash-object'))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'blames a symbolic link as the link, which is not hashed by its path',
    async () => {
      const fx = await t.fixture();
      symlinkSync('README.md', join(fx.repo, 'link'));
      git(fx.repo, 'add', 'link');
      git(fx.repo, 'commit', '-q', '-m', 'link');
      const session = await t.connect(fx.app);
      const earlier = runs.length;
      const { lines, forms } = await blamed(session, 'link');
      expect(lines).toEqual(porcelain(fx.repo, 'link'));
      expect(lines.map((l) => l.text)).toEqual(['README.md']);
      // Hashing the path would read the file the link points to: the porcelain form answers.
      expect(forms).toEqual(['porcelain']);
      expect(runs.slice(earlier).some((r) => r.args.includes('hash-object'))).toBe(false);
    },
  );
});
