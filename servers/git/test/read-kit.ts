/**
 * Fixtures for the read tools' tests: the shared fixture with the server's real app, a test's
 * fixture and client closed after it, and long histories made in one `git fast-import` run instead
 * of one process per commit.
 */
import { execFileSync } from 'node:child_process';
import { type ConnectOptions, connect, type TestSession } from '@mcpkit/core/testing';
import { afterEach } from 'vitest';
import { FIXTURE_ENV, git, type RepoFixture, repoFixture } from './repo-kit.js';

/** The shared fixture (`base/repos/app` with three commits, `base/outside`) with the server's app. */
export type ReadFixture = RepoFixture;
export const readFixture = repoFixture;

/** What one test makes, each closed or removed once the test is over. */
export interface PerTest {
  /** A fresh {@link readFixture}. */
  fixture(): Promise<ReadFixture>;
  /** A client of `app` in the describe block's era. */
  connect(app: ReadFixture['app']): Promise<TestSession>;
}

/** A {@link PerTest} for every test of the calling describe block, whose clients speak `era`. */
export function perTest(era: ConnectOptions['era']): PerTest {
  let fx: ReadFixture | undefined;
  let session: TestSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await fx?.cleanup();
    fx = undefined;
  });
  return {
    async fixture() {
      fx = await readFixture();
      return fx;
    },
    async connect(app) {
      session = await connect(app, { era });
      return session;
    },
  };
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
