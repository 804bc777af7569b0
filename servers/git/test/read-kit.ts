/**
 * Fixtures for the read tools' tests: an app that serves only these tools (the server's tool list
 * is assembled elsewhere), and long histories made in one `git fast-import` run instead of one
 * process per commit.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { App, AppOptions } from '@mcpkit/core/server';
import type { GitContext } from '../src/context.js';
import { gitBlame } from '../src/tools/git-blame.js';
import { gitDiff } from '../src/tools/git-diff.js';
import { gitDiffStaged } from '../src/tools/git-diff-staged.js';
import { gitDiffUnstaged } from '../src/tools/git-diff-unstaged.js';
import { gitLog } from '../src/tools/git-log.js';
import { gitReflog } from '../src/tools/git-reflog.js';
import { gitShow } from '../src/tools/git-show.js';
import { FIXTURE_ENV, git, repoFixture } from './repo-kit.js';

/** The tools under test. */
export const readTools = [gitDiffUnstaged, gitDiffStaged, gitDiff, gitLog, gitShow, gitBlame, gitReflog];

export interface ReadFixture {
  base: string;
  repo: string;
  outside: string;
  app: App<GitContext>;
  cleanup(): Promise<void>;
}

/** The shared fixture (`base/repos/app` with three commits, `base/outside`) with the server's app. */
export function readFixture(options: Omit<AppOptions, 'roots'> = {}): Promise<ReadFixture> {
  return repoFixture(options);
}

/** One commit for {@link importCommits}: the files it sets, whole. */
export interface ImportedCommit {
  message: string;
  files: Record<string, string>;
  /** Unix seconds; default: one hour after the previous commit. */
  authorTime?: number;
  committerTime?: number;
}

/**
 * Appends `commits` to `main` of the repository at `dir` with one `git fast-import`, then checks
 * them out. Times default to hourly steps from 2026-01-02.
 */
export function importCommits(dir: string, commits: readonly ImportedCommit[]): void {
  const parent = git(dir, 'rev-parse', '--verify', '-q', 'HEAD').trim();
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  let time = Date.UTC(2026, 0, 2) / 1000;
  for (const [i, c] of commits.entries()) {
    time += 3600;
    chunks.push(
      'commit refs/heads/main\n',
      `mark :${i + 1}\n`,
      `author Test User <test@example.com> ${c.authorTime ?? time} +0000\n`,
      `committer Test User <test@example.com> ${c.committerTime ?? time} +0000\n`,
      data(c.message),
      i === 0 ? `from ${parent}\n` : `from :${i}\n`,
    );
    for (const [name, text] of Object.entries(c.files)) chunks.push(`M 100644 inline ${name}\n`, data(text));
    chunks.push('\n');
  }
  execFileSync('git', ['fast-import', '--quiet', '--force'], {
    cwd: dir,
    env: FIXTURE_ENV,
    input: chunks.join(''),
  });
  git(dir, 'reset', '-q', '--hard', 'main');
}

/** `n` commits that each add one line to `history.txt`: `line 1`…`line n`. */
export function lineCommits(n: number): ImportedCommit[] {
  const lines: string[] = [];
  return Array.from({ length: n }, (_, i) => {
    lines.push(`line ${i + 1}`);
    return { message: `add line ${i + 1}`, files: { 'history.txt': `${lines.join('\n')}\n` } };
  });
}

/**
 * A long-to-blame history, streamed into `git fast-import`: `commits` commits on `main` of `dir`,
 * each rewriting three random lines of the `lines`-line `slow.txt` (about a second of blame for
 * 1500 commits of 4000 lines).
 */
export async function importRandomEdits(dir: string, commits: number, lines: number): Promise<void> {
  const child = spawn('git', ['fast-import', '--quiet'], {
    cwd: dir,
    env: FIXTURE_ENV,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`fast-import exited with ${code}`)),
    );
  });
  const rows = Array.from({ length: lines }, (_, i) => `line ${i}\n`);
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  for (let c = 0; c < commits; c++) {
    for (let k = 0; k < 3; k++) rows[Math.floor(random() * lines)] = `edit ${c} ${random()}\n`;
    const body = rows.join('');
    const message = `edit ${c}\n`;
    const stamp = 1_767_225_600 + c;
    const chunk =
      `commit refs/heads/main\nauthor A <a@example.com> ${stamp} +0000\ncommitter A <a@example.com> ${stamp} +0000\n` +
      `data ${message.length}\n${message}M 100644 inline slow.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
    if (!child.stdin.write(chunk)) await once(child.stdin, 'drain');
  }
  child.stdin.end();
  await done;
  git(dir, 'reset', '-q', '--hard', 'main');
}
