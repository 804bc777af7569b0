/**
 * The git server's bench fixtures, built with plain git and cached under the bench's output folder
 * like the filesystem's: a long history (`git fast-import` writes 10,000 commits in a second or
 * two), a wide work tree with modified and untracked files so `git status` has work, and a work
 * tree whose unstaged diff is about 5 MB. Seeded, so every machine builds the same repositories.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixture } from '../../scenario.js';
import { seededRandom } from '../filesystem/fixtures.js';

/** How big each git fixture is. The full set matches the server issue; the smoke test shrinks it. */
export interface GitSizes {
  /** Commits of the history repository. */
  commits: number;
  /** Tracked files of the status work tree. */
  treeFiles: number;
  /** Of those, how many are changed in the work tree. */
  modifiedFiles: number;
  /** New files beside them, untracked. */
  untrackedFiles: number;
  /** Roughly how large the unstaged diff of the diff repository is. */
  diffBytes: number;
}

export const FULL_SIZES: GitSizes = {
  commits: 10_000,
  treeFiles: 20_000,
  modifiedFiles: 400,
  untrackedFiles: 400,
  diffBytes: 5 * 1024 * 1024,
};

export const TINY_SIZES: GitSizes = {
  commits: 60,
  treeFiles: 200,
  modifiedFiles: 8,
  untrackedFiles: 8,
  diffBytes: 64 * 1024,
};

/** The sizes `--sizes full|tiny` picks. */
export const SIZES = { full: FULL_SIZES, tiny: TINY_SIZES } as const;

/** What a built fixture holds, to check answers against and for the results file. */
export interface GitCounts {
  commits: number;
  trackedFiles: number;
  modifiedFiles: number;
  untrackedFiles: number;
  /** Bytes `git diff` prints in the diff repository. */
  diffBytes: number;
  diffFiles: number;
}

/** Three repositories under `dir`, the one directory every server is given. */
export interface GitFixtures extends Fixture {
  /** `[dir]`: our server's allowed directory (the peer takes paths in its calls). */
  args: [string];
  dir: string;
  /** The long history. */
  history: string;
  /** The wide work tree, with changes. */
  worktree: string;
  /** The work tree with a large unstaged diff. */
  diffRepo: string;
  sizes: GitSizes;
  counts: GitCounts;
}

/** Bump when the layout changes, so a cached fixture of an older layout is rebuilt. */
const LAYOUT_VERSION = 2;

/**
 * The environment of the fixture's git and of the floor's: no system or user configuration, so a
 * host's settings (signing, fsmonitor, untracked cache) neither break the build nor skew the floor.
 */
export const PLAIN_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: PLAIN_GIT_ENV,
    input,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

const WORDS = [
  'parse',
  'render',
  'cache',
  'index',
  'router',
  'schema',
  'token',
  'buffer',
  'stream',
  'worker',
  'config',
  'session',
  'layout',
  'widget',
  'client',
  'server',
  'bundle',
  'module',
  'export',
  'import',
  'handle',
  'retry',
  'queue',
  'ledger',
];
const VERBS = ['Fix', 'Add', 'Refactor', 'Speed up', 'Document', 'Remove', 'Rename', 'Test'];
const AUTHORS = [
  ['Ada Park', 'ada@example.com'],
  ['Bo Lindqvist', 'bo@example.com'],
  ['Chidi Okafor', 'chidi@example.com'],
  ['Dana Ruiz', 'dana@example.com'],
] as const;

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const words = (random: Random, n: number): string =>
  Array.from({ length: n }, () => pick(random, WORDS)).join(' ');

/** A source-like line of about 60 characters. */
const line = (random: Random): string => `  ${words(random, 3 + Math.floor(random() * 6))};`.slice(0, 78);

/** `data` of a fast-import stream: the byte count, then the bytes. */
const data = (text: string): string => `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;

/** Where file `i` of a tree lives: folders of 25 files, as in the filesystem plan's trees. */
const treePath = (i: number): string =>
  `src/part-${Math.floor(i / 625)}/group-${Math.floor(i / 25) % 25}/file-${i}.ts`;

/** A fresh repository on `main`, then the history the stream describes, checked out. */
function importRepo(dir: string, stream: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '--initial-branch=main']);
  git(dir, ['fast-import', '--quiet'], stream);
  git(dir, ['reset', '-q', '--hard', 'main']);
}

/** One commit per line of history: each touches one of 200 files; one in five has a body. */
function historyStream(random: Random, commits: number): string {
  const parts: string[] = [];
  const t0 = 1_700_000_000;
  for (let i = 1; i <= commits; i++) {
    const [name, email] = pick(random, AUTHORS);
    const when = `${t0 + i * 600} +0000`;
    const subject = `${pick(random, VERBS)} ${words(random, 2 + Math.floor(random() * 4))} (#${i})`;
    const body = random() < 0.2 ? `\n\n${words(random, 12)}\n${words(random, 9)}` : '';
    parts.push(
      `commit refs/heads/main\nmark :${i}\nauthor ${name} <${email}> ${when}\ncommitter ${name} <${email}> ${when}\n`,
      data(`${subject}${body}\n`),
      i > 1 ? `from :${i - 1}\n` : '',
      `M 100644 inline src/module-${i % 200}.ts\n`,
      data(`// revision ${i}\n${line(random)}\n${line(random)}\n`),
    );
  }
  return parts.join('');
}

/** A single commit of `files` files, each from `content(i)`. */
function snapshotStream(files: number, content: (i: number) => string, path = treePath): string {
  const parts = [
    'commit refs/heads/main\nauthor Ada Park <ada@example.com> 1700000000 +0000\n',
    'committer Ada Park <ada@example.com> 1700000000 +0000\n',
    data('Snapshot\n'),
  ];
  for (let i = 0; i < files; i++) parts.push(`M 100644 inline ${path(i)}\n`, data(content(i)));
  return parts.join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Refreshes the index once every file is older than it: a file written in the same second as the
 * index is "racily clean", and every later status would read it again.
 */
async function settleIndex(dir: string): Promise<void> {
  await sleep(1100);
  git(dir, ['update-index', '-q', '--refresh']);
  git(dir, ['status', '--porcelain']);
}

async function buildWorktree(dir: string, random: Random, sizes: GitSizes): Promise<void> {
  const texts = Array.from({ length: sizes.treeFiles }, () =>
    Array.from({ length: 3 + Math.floor(random() * 10) }, () => line(random)).join('\n'),
  );
  importRepo(
    dir,
    snapshotStream(sizes.treeFiles, (i) => `${texts[i]}\n`),
  );
  // Spread over the tree: every n-th file changed, and as many new files beside others.
  const every = Math.max(1, Math.floor(sizes.treeFiles / sizes.modifiedFiles));
  for (let k = 0; k < sizes.modifiedFiles; k++) {
    const i = k * every;
    writeFileSync(join(dir, treePath(i)), `${texts[i]}\n${line(random)}\n`);
  }
  const step = Math.max(1, Math.floor(sizes.treeFiles / sizes.untrackedFiles));
  for (let k = 0; k < sizes.untrackedFiles; k++) {
    writeFileSync(join(dir, `${treePath((k * step + 1) % sizes.treeFiles)}.new`), `${line(random)}\n`);
  }
  await settleIndex(dir);
}

/** Lines per file of the diff repository; every third line differs in the work tree. */
const DIFF_FILE_LINES = 400;

async function buildDiffRepo(dir: string, random: Random, sizes: GitSizes): Promise<void> {
  const files: { before: string[]; after: string[] }[] = [];
  let estimate = 0;
  while (estimate < sizes.diffBytes) {
    const before = Array.from({ length: DIFF_FILE_LINES }, () => line(random));
    const after = before.map((l, j) => (j % 3 === 1 ? `  ${words(random, 6)}; // changed` : l));
    files.push({ before, after });
    // Each line once with its prefix (context or removed), each changed line again (added), headers.
    estimate +=
      120 + before.reduce((n, l, j) => n + l.length + 2 + (l === after[j] ? 0 : after[j]!.length + 2), 0);
  }
  const path = (i: number) => `lib/chunk-${i}.ts`;
  importRepo(
    dir,
    snapshotStream(files.length, (i) => `${files[i]!.before.join('\n')}\n`, path),
  );
  for (const [i, { after }] of files.entries()) writeFileSync(join(dir, path(i)), `${after.join('\n')}\n`);
  await settleIndex(dir);
}

function countsOf(
  paths: { history: string; worktree: string; diffRepo: string },
  sizes: GitSizes,
): GitCounts {
  const commits = Number(git(paths.history, ['rev-list', '--count', 'HEAD']).trim());
  const trackedFiles = git(paths.worktree, ['ls-files', '-z']).split('\0').filter(Boolean).length;
  const status = git(paths.worktree, ['status', '--porcelain=v1', '-z']).split('\0').filter(Boolean);
  const diff = git(paths.diffRepo, ['diff', '--no-color']);
  const diffFiles = git(paths.diffRepo, ['diff', '--name-only', '-z']).split('\0').filter(Boolean).length;
  const counts = {
    commits,
    trackedFiles,
    modifiedFiles: status.filter((s) => s.startsWith(' M')).length,
    untrackedFiles: status.filter((s) => s.startsWith('??')).length,
    diffBytes: Buffer.byteLength(diff, 'utf8'),
    diffFiles,
  };
  const expected = [sizes.commits, sizes.treeFiles, sizes.modifiedFiles, sizes.untrackedFiles];
  const got = [counts.commits, counts.trackedFiles, counts.modifiedFiles, counts.untrackedFiles];
  if (got.some((n, i) => n !== expected[i])) {
    throw new Error(`git fixtures came out wrong: ${JSON.stringify(counts)} for ${JSON.stringify(sizes)}.`);
  }
  return counts;
}

/**
 * Builds the git fixtures for a seed under `cacheDir`, or reuses the ones already there: writing
 * 20,000 files and checking them in takes a while, and identical inputs make runs comparable.
 */
export async function gitFixtures(cacheDir: string, seed: number, sizes: GitSizes): Promise<GitFixtures> {
  const key = createHash('sha256')
    .update(JSON.stringify({ LAYOUT_VERSION, seed, sizes }))
    .digest('hex')
    .slice(0, 10);
  const dir = join(cacheDir, `git-${seed}-${key}`);
  const paths = {
    history: join(dir, 'history'),
    worktree: join(dir, 'worktree'),
    diffRepo: join(dir, 'diff'),
  };
  const manifest = join(dir, 'manifest.json');
  let counts: GitCounts;
  if (existsSync(manifest)) {
    counts = (JSON.parse(readFileSync(manifest, 'utf8')) as { counts: GitCounts }).counts;
  } else {
    // A half-written fixture (interrupted run) has no manifest: start it over.
    rmSync(dir, { recursive: true, force: true });
    const random = seededRandom(seed);
    importRepo(paths.history, historyStream(random, sizes.commits));
    await buildWorktree(paths.worktree, random, sizes);
    await buildDiffRepo(paths.diffRepo, random, sizes);
    counts = countsOf(paths, sizes);
    writeFileSync(manifest, JSON.stringify({ seed, sizes, counts }, null, 2));
  }
  return { ...paths, dir, args: [dir], sizes, counts };
}
