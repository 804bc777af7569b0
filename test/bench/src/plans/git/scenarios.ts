/**
 * The git scenarios of the server issue: the log of a 10,000-commit history, the status of a
 * 20,000-file work tree, and a 5 MB diff. Ours follows every page, the peer is asked for the same
 * whole answer (its log stops at 1,000 commits a call, so it is walked with `skip`), and the floor
 * is the plain `git` command spawned from Node, its whole output read: the reference the issue names.
 */
import { spawn } from 'node:child_process';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  allPages,
  built,
  type Op,
  type Scenario,
  type SessionContext,
  single,
  structured,
} from '../../scenario.js';
import type { Session } from '../../session.js';
import { count, size } from '../labels.js';
import { type GitFixtures, type GitSizes, PLAIN_GIT_ENV } from './fixtures.js';

type G = Scenario<GitFixtures>;
type Ctx = SessionContext<GitFixtures>;

/** The implementation id of the peer's rows. */
export const PEER_IMPL = 'cyanheads';

/** The most commits the peer's git_log returns per call. */
const PEER_LOG_MAX = 1000;

/**
 * Runs plain git in `cwd` and reads all it prints, as a Node program would: spawned without a
 * shell, stdout gathered and decoded once.
 */
export function plainGit(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: PLAIN_GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-2000);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args[0]} exited with ${code}: ${err.trim()}`));
    });
  });
}

/** The same fields our git_log reads, one NUL after each and another after each commit. */
const LOG_ARGS = [
  'log',
  '-z',
  '--no-color',
  '--format=tformat:%H%x00%P%x00%an%x00%ae%x00%aI%x00%cI%x00%s%x00%b',
];
const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal'];
const DIFF_ARGS = ['diff', '--no-color'];

/** The length of an array field of a structured answer, or undefined when the answer has none. */
const lengthOf = (answer: CallToolResult, field: string): number | undefined => {
  const value = structured(answer)[field];
  return Array.isArray(value) ? value.length : undefined;
};

/** An answer that holds less than the fixture fails the session: a fast partial answer is no win. */
function expectCount(what: string, got: number | undefined, want: number): void {
  if (got !== undefined && got !== want) throw new Error(`${what}: got ${got}, expected ${want}.`);
}

/** Ours: every page of git_log, then a check that together they hold the whole history. */
const ourLog =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const want = fixtures.counts.commits;
    const result = await allPages(session, 'git_log', { repo_path: fixtures.history, max_count: want });
    const got = result.answers.reduce((n, a) => n + (lengthOf(a, 'commits') ?? 0), 0);
    expectCount('git_log commits', got, want);
    return result;
  };

/** The peer: 1,000 commits a call at most, so the history is walked with `skip`. */
const peerLog =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const want = fixtures.counts.commits;
    const answers: CallToolResult[] = [];
    let got = 0;
    for (let skip = 0; skip < want; skip += PEER_LOG_MAX) {
      const maxCount = Math.min(PEER_LOG_MAX, want - skip);
      const { answers: page } = await single(session, 'git_log', { path: fixtures.history, maxCount, skip });
      answers.push(...page);
      const n = lengthOf(page[0]!, 'commits');
      expectCount(`git_log commits at skip ${skip}`, n, maxCount);
      got += n ?? maxCount;
    }
    expectCount('git_log commits', got, want);
    return { answers };
  };

const ourStatus =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const result = await single(session, 'git_status', { repo_path: fixtures.worktree });
    const answer = result.answers[0]!;
    expectCount('git_status unstaged', lengthOf(answer, 'unstaged'), fixtures.counts.modifiedFiles);
    expectCount('git_status untracked', lengthOf(answer, 'untracked'), fixtures.counts.untrackedFiles);
    return result;
  };

const peerStatus =
  (session: Session, { fixtures }: Ctx): Op =>
  async () => {
    const result = await single(session, 'git_status', { path: fixtures.worktree });
    const answer = result.answers[0]!;
    const unstaged = structured(answer).unstagedChanges as { modified?: unknown[] } | undefined;
    expectCount('git_status modified', unstaged?.modified?.length, fixtures.counts.modifiedFiles);
    expectCount('git_status untracked', lengthOf(answer, 'untrackedFiles'), fixtures.counts.untrackedFiles);
    return result;
  };

/** Ours: the unstaged diff, every page. */
const ourDiff =
  (session: Session, { fixtures }: Ctx): Op =>
  () =>
    allPages(session, 'git_diff_unstaged', { repo_path: fixtures.diffRepo });

/** The peer's git_diff without a target is the unstaged diff, in one answer. */
const peerDiff =
  (session: Session, { fixtures }: Ctx): Op =>
  () =>
    single(session, 'git_diff', { path: fixtures.diffRepo });

const floorOf =
  (repo: (f: GitFixtures) => string, args: (f: GitFixtures) => readonly string[]) =>
  ({ fixtures }: Ctx): Op =>
  async () =>
    built(await plainGit(repo(fixtures), args(fixtures)));

/** The two targets for each scenario. */
const goals = (what: string): G['goals'] => [
  { metric: 'p50', versus: 'peer', atMost: 0.5, text: `${what} ≥ 2× faster than ${PEER_IMPL}` },
  { metric: 'p50', versus: 'floor', atMost: 1.5, text: `${what} within 1.5× of plain git` },
];

/** The git scenarios of the server issue, in report order, titled with the sizes in use. */
export function gitScenarios(sizes: GitSizes): G[] {
  return [
    {
      id: 'log-10k',
      title: `git_log ${count(sizes.commits)} commits`,
      kind: 'calls',
      warmup: 1,
      calls: 5,
      goals: goals(`git_log ${count(sizes.commits)}`),
      server: { ours: ourLog, [PEER_IMPL]: peerLog },
      floor: floorOf(
        (f) => f.history,
        (f) => [...LOG_ARGS, `--max-count=${f.counts.commits}`],
      ),
    },
    {
      id: 'status-20k',
      title: `git_status ${count(sizes.treeFiles)} files`,
      kind: 'calls',
      warmup: 1,
      calls: 5,
      goals: goals(`git_status ${count(sizes.treeFiles)}`),
      server: { ours: ourStatus, [PEER_IMPL]: peerStatus },
      floor: floorOf(
        (f) => f.worktree,
        () => STATUS_ARGS,
      ),
    },
    {
      id: 'diff-5mb',
      title: `diff ${size(sizes.diffBytes, 'short')}`,
      kind: 'calls',
      warmup: 1,
      calls: 5,
      goals: goals(`diff ${size(sizes.diffBytes, 'short')}`),
      server: { ours: ourDiff, [PEER_IMPL]: peerDiff },
      floor: floorOf(
        (f) => f.diffRepo,
        () => DIFF_ARGS,
      ),
    },
  ];
}
