/**
 * git_blame settles lines with `git blame --incremental` and reads their text in a run of its own
 * (the blob at a commit, the work tree file as git reads it). Its answer must be the one the
 * porcelain form gives in one run, text included: uncommitted lines, a last line without newline,
 * end-of-line conversion, bytes that are not UTF-8, ranges. Where the text cannot be read that way
 * (a SHA-256 repository), the porcelain form answers, and the answer is still the same.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestSession, textOf } from '@mcpkit/core/testing';
import { describe, expect, it, vi } from 'vitest';
import { parseBlame } from '../src/git/parse-blame.js';
import { runs } from './git-runs.js';
import { importCommits, lineCommits, perTest } from './read-kit.js';
import { git, makeRepo } from './repo-kit.js';

vi.mock('@mcpkit/core/progress', async (importOriginal) => {
  const real = await importOriginal<typeof import('@mcpkit/core/progress')>();
  const { recording } = await import('./git-runs.js');
  return { ...real, runProcess: recording(real.runProcess) };
});

type Line = { line: number; sha: string; author: string; date: string; summary: string; text: string };

/** Lines not committed yet are dated when blame runs: two runs differ there, and only there. */
function undated(lines: readonly Line[]): Line[] {
  return lines.map((l) => (/^0+$/.test(l.sha) ? { ...l, date: 'now' } : l));
}

/** The tool's lines for `args`, with the blame runs the call made. */
async function blamed(session: TestSession, args: Record<string, unknown>) {
  const earlier = runs.length;
  const result = await session.callTool('git_blame', args);
  expect(result.isError, textOf(result)).toBeFalsy();
  const blames = runs.slice(earlier).filter((r) => r.args.includes('blame'));
  const lines = (result.structuredContent as { lines: Line[] }).lines;
  return {
    lines: undated(lines),
    forms: blames.map((r) => (r.args.includes('--incremental') ? 'incremental' : 'porcelain')),
  };
}

/** What `git blame --porcelain` says in `dir` for the same request, read by the porcelain parser. */
function porcelain(dir: string, args: readonly string[]): Line[] {
  return undated(parseBlame(git(dir, 'blame', '--porcelain', ...args)));
}

describe.each(['legacy', 'modern'] as const)('git_blame text, %s era', (era) => {
  const t = perTest(era);

  it('gives the lines the porcelain blame gives, from one incremental blame', async () => {
    const fx = await t.fixture();
    importCommits(fx.repo, lineCommits(30));
    // Uncommitted changes, one of them a last line without newline.
    await writeFile(join(fx.repo, 'README.md'), '# App\nA new line.');
    const history = git(fx.repo, 'show', 'HEAD:history.txt').replace('line 10\n', 'line ten\n');
    await writeFile(join(fx.repo, 'history.txt'), `${history}line 31 not committed`);
    // Bytes that are not text, committed: read with --text, decoded as the porcelain output is.
    await writeFile(join(fx.repo, 'bytes.bin'), Buffer.from('a\0b\n\xff\xfe tail\nlast', 'latin1'));
    git(fx.repo, 'add', 'bytes.bin');
    git(fx.repo, 'commit', '-q', '-m', 'bytes');
    const session = await t.connect(fx.app);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ path: 'README.md' }, ['--', 'README.md']],
      [{ path: 'history.txt' }, ['--', 'history.txt']],
      [{ path: 'history.txt', start_line: 8, end_line: 12 }, ['-L', '8,12', '--', 'history.txt']],
      [{ path: 'history.txt', start_line: 29 }, ['-L', '29,', '--', 'history.txt']],
      [{ path: 'history.txt', ref: 'HEAD~10' }, ['HEAD~10', '--', 'history.txt']],
      [
        { path: 'history.txt', ref: 'HEAD~10', start_line: 15 },
        ['-L', '15,', 'HEAD~10', '--', 'history.txt'],
      ],
      [{ path: 'bytes.bin' }, ['--', 'bytes.bin']],
      [{ path: 'bytes.bin', ref: 'HEAD' }, ['HEAD', '--', 'bytes.bin']],
    ];
    for (const [args, argv] of cases) {
      const { lines, forms } = await blamed(session, args);
      expect(lines, JSON.stringify(args)).toEqual(porcelain(fx.repo, argv));
      expect(forms, JSON.stringify(args)).toEqual(['incremental']);
    }
    // The uncommitted lines are there, and the last one kept its text without a newline.
    const { lines } = await blamed(session, { path: 'history.txt' });
    expect(lines.at(-1)).toMatchObject({ line: 31, sha: '0'.repeat(40), text: 'line 31 not committed' });
    expect(lines[9]).toMatchObject({ line: 10, sha: '0'.repeat(40), text: 'line ten' });
  });

  it('reads the work tree file the way blame does: through the end-of-line rules', async () => {
    const fx = await t.fixture();
    git(fx.repo, 'config', 'core.autocrlf', 'true');
    await writeFile(join(fx.repo, 'crlf.txt'), 'one\r\ntwo\r\n');
    git(fx.repo, 'add', 'crlf.txt');
    git(fx.repo, 'commit', '-q', '-m', 'crlf');
    await writeFile(join(fx.repo, 'crlf.txt'), 'one\r\nTWO\r\nthree\r\n');
    const session = await t.connect(fx.app);
    const { lines, forms } = await blamed(session, { path: 'crlf.txt' });
    expect(lines).toEqual(porcelain(fx.repo, ['--', 'crlf.txt']));
    // No carriage return: blame reads the file converted, and so does the text.
    expect(lines.map((l) => l.text)).toEqual(['one', 'TWO', 'three']);
    expect(forms).toEqual(['incremental']);
  });

  it('falls back to the porcelain blame where the text cannot be read beside it, with the same answer', async () => {
    const fx = await t.fixture();
    // A SHA-256 repository names its empty tree differently: the work tree text is not read.
    const repo = join(fx.base, 'repos', 'wide');
    git(join(fx.base, 'repos'), 'init', '-q', '-b', 'main', '--object-format=sha256', 'wide');
    await makeRepo(repo, [{ 'notes.md': 'first\nsecond\n' }]);
    await writeFile(join(repo, 'notes.md'), 'first\nchanged\n');
    const session = await t.connect(fx.app);
    const { lines, forms } = await blamed(session, { repo_path: repo, path: 'notes.md' });
    expect(lines).toEqual(porcelain(repo, ['--', 'notes.md']));
    expect(lines.map((l) => [l.sha.length, l.text])).toEqual([
      [64, 'first'],
      [64, 'changed'],
    ]);
    expect(forms).toEqual(['porcelain']);
    // At a commit the blob is read by its name, whatever the hash: the incremental form serves.
    const atHead = await blamed(session, { repo_path: repo, path: 'notes.md', ref: 'HEAD' });
    expect(atHead.lines).toEqual(porcelain(repo, ['HEAD', '--', 'notes.md']));
    expect(atHead.forms).toEqual(['incremental']);
  });
});
