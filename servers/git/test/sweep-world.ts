/**
 * The git sweep's world and batteries: beside the shared fixture repository (`repos/app`, three
 * commits), a repository with no commit yet, a plain folder, a file, and a tag; the odd repository
 * paths, revisions, file paths, names, messages, dates and cursors the sweep sends; and each
 * tool's base arguments. Writers run against a copy restored before each case.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { RootSet } from '@mcpkit/core/roots';
import { ODD_STRINGS, type OddInputBattery, type OddInputSchema, oddCursors } from '@mcpkit/core/testing';
import { createGitApp, type GitOptions } from '../src/server.js';
import { git, makeRepo } from './repo-kit.js';

/** The sweep's folders: `repos` (the allowed directory), its pristine copy, and `outside`. */
export interface GitSweepWorld {
  base: string;
  repos: string;
  outside: string;
  /** Object names of the fixture repository: a tree, a blob, the first commit. */
  tree: string;
  blob: string;
  first: string;
}

/** Builds `repos/` (see the file comment) and its pristine copy beside it. */
export async function buildRepos(base: string): Promise<GitSweepWorld> {
  const repos = join(base, 'repos');
  const app = join(repos, 'app');
  await makeRepo(app, [
    { 'README.md': '# App\nline 2\nline 3\n', 'src/main.ts': 'export const a = 1;\n' },
    { 'src/main.ts': 'export const a = 2;\n' },
    { 'docs/guide.md': 'Read me first.\n' },
  ]);
  git(app, 'tag', 'v1', 'HEAD~1');
  git(app, 'tag', 'v0', 'HEAD~2');
  git(app, 'branch', 'other', 'HEAD~2');
  await writeFile(join(app, 'README.md'), '# App\nchanged\n');
  await writeFile(join(app, 'untracked.txt'), 'new\n');
  await makeRepo(join(repos, 'empty'));
  await mkdir(join(repos, 'plain'));
  await writeFile(join(repos, 'file.txt'), 'not a repository\n');
  await mkdir(join(base, 'outside'), { recursive: true });
  await writeFile(join(base, 'outside', 'secret.txt'), 'top secret\n');
  await cp(repos, join(base, 'pristine'), { recursive: true, verbatimSymlinks: true });
  return {
    base,
    repos,
    outside: join(base, 'outside'),
    tree: git(app, 'rev-parse', 'HEAD^{tree}').trim(),
    blob: git(app, 'rev-parse', 'HEAD:README.md').trim(),
    first: git(app, 'rev-parse', 'HEAD~2').trim(),
  };
}

/** The app the sweeps serve: `repos/` allowed, its `app` the default, no global configuration; `more` adds options. */
export async function gitSweepApp(w: GitSweepWorld, more: Partial<GitOptions> = {}) {
  return createGitApp({
    roots: await RootSet.create([w.repos]),
    defaultRepository: join(w.repos, 'app'),
    globalConfigFile: '/dev/null',
    ...more,
  });
}

/** Puts `repos/` back as it was built: every writer's case starts from it. */
export async function restoreRepos(w: GitSweepWorld): Promise<void> {
  for (const name of await readdir(w.repos)) await rm(join(w.repos, name), { recursive: true, force: true });
  await cp(join(w.base, 'pristine'), w.repos, { recursive: true, verbatimSymlinks: true });
}

/**
 * Everything outside the allowed `repos/`, each entry with its content's hash: the base folder's
 * entries, and all of `outside/` and the pristine copy. No tool may change any of it.
 */
export async function outsideTree(w: GitSweepWorld): Promise<string[]> {
  const found = (await readdir(w.base)).map((name) => `${name}/`);
  for (const top of ['outside', 'pristine']) {
    for (const e of await readdir(join(w.base, top), { recursive: true, withFileTypes: true })) {
      const path = join(e.parentPath, e.name);
      const kind = e.isFile()
        ? createHash('sha256')
            .update(await readFile(path))
            .digest('hex')
        : e.isDirectory()
          ? 'dir'
          : 'other';
      found.push(`${relative(w.base, path)} ${kind}`);
    }
  }
  return found.sort();
}

/** Repository paths that are not a repository, or not one that may be used. */
export function oddRepos(w: GitSweepWorld): string[] {
  return [
    'app',
    'empty',
    'plain',
    'file.txt',
    'missing',
    'app/src',
    'app/.git',
    'app/.git/objects',
    'app/README.md',
    '../outside',
    w.outside,
    w.base,
    join(w.repos, 'app', 'missing'),
    'n'.repeat(300),
    `${'d/'.repeat(2100)}x`,
    ...ODD_STRINGS,
  ];
}

/** Revisions that name nothing, the wrong kind of object, a range, or look like an option. */
export function oddRevisions(w: GitSweepWorld): string[] {
  return [
    'HEAD',
    'HEAD~99',
    'HEAD^{tree}',
    'HEAD:README.md',
    'HEAD..main',
    'main...other',
    '@{-1}',
    '@{upstream}',
    'HEAD@{1000}',
    'stash@{0}',
    'nope',
    'v1',
    'v9',
    'refs/heads/main',
    ':/commit 2',
    w.tree,
    w.blob,
    w.first.slice(0, 4),
    '0'.repeat(40),
    'f'.repeat(64),
    '--output=/tmp/x',
    '-p',
    `${'a'.repeat(300)}`,
    ...ODD_STRINGS,
  ];
}

/** Paths inside a repository that name nothing, a folder, a pathspec, or lead out. */
export function oddFilePaths(w: GitSweepWorld): string[] {
  return [
    'README.md',
    'src',
    'missing.txt',
    'README.md/x',
    'untracked.txt',
    '.git/config',
    '../outside/secret.txt',
    '../../outside/secret.txt',
    join(w.outside, 'secret.txt'),
    join(w.repos, 'app', 'README.md'),
    ':(glob)**',
    ':!README.md',
    ':(top)',
    ':(attr:x)',
    '*.md',
    '.',
    ...ODD_STRINGS,
  ];
}

/** Branch and tag names git refuses, or that already exist. */
export const ODD_NAMES: readonly string[] = [
  'main',
  'other',
  'v1',
  'HEAD',
  'feature/x',
  'a..b',
  'a b',
  'x.lock',
  '@',
  'refs/heads/x',
  '/x',
  'x/',
  'x~1',
  'x^',
  'x:y',
  'x?*[',
  '-b',
  ...ODD_STRINGS,
];

/** Dates git cannot read, or reads oddly. */
export const ODD_DATES: readonly string[] = [
  'yesterday',
  'not a date',
  '2026-13-45',
  '1e99',
  '@0',
  '9999-12-31T23:59:59Z',
  '0000-00-00',
  '-1',
  ...ODD_STRINGS,
];

/** The sweep's battery for git tools: each argument by its name. */
export function gitBattery(w: GitSweepWorld, cursors: readonly string[]): OddInputBattery {
  return (name: string, schema: OddInputSchema) => {
    if (schema.type === 'array' && (name === 'paths' || name === 'files')) {
      const paths = oddFilePaths(w);
      return [[], ...paths.map((p) => [p]), paths.slice(0, 8)];
    }
    if (schema.type !== 'string' || schema.enum) return undefined;
    if (name === 'repo_path') return oddRepos(w);
    if (['target', 'revision', 'ref', 'base_branch', 'contains', 'not_contains'].includes(name)) {
      return oddRevisions(w);
    }
    if (name === 'path') return oddFilePaths(w);
    if (name === 'branch_name' || name === 'name') return [...ODD_NAMES];
    if (name === 'start_timestamp' || name === 'end_timestamp') return [...ODD_DATES];
    if (name === 'cursor') return oddCursors(cursors);
    if (name === 'message') return ['#only a comment', 'subject\n\n\n', ...ODD_STRINGS];
    return undefined;
  };
}

/** Each tool's arguments when nothing is odd: the case every varied argument starts from. */
export const GIT_BASE: Record<string, Record<string, unknown>> = {
  git_status: {},
  git_diff_unstaged: {},
  git_diff_staged: {},
  git_diff: { target: 'HEAD~1' },
  git_log: {},
  git_show: { revision: 'HEAD' },
  git_blame: { path: 'README.md' },
  git_reflog: {},
  git_add: { files: ['README.md'] },
  git_commit: { message: 'sweep' },
  git_reset: {},
  git_branch: {},
  git_create_branch: { branch_name: 'sweep' },
  git_checkout: { branch_name: 'other' },
  git_stash: { action: 'list' },
  git_tag: {},
  git_worktree_list: {},
  git_generate_commit_message: {},
};

/** Wrong-but-valid combinations the one-argument-at-a-time battery does not make. */
export function gitExtras(): Record<string, Record<string, unknown>[]> {
  const inEmpty = (args: Record<string, unknown>) => ({ repo_path: 'empty', ...args });
  return {
    git_blame: [
      { path: 'README.md', start_line: 3, end_line: 1 },
      { path: 'README.md', start_line: 99 },
      { path: 'README.md', start_line: 2, end_line: 99 },
      { path: 'README.md', ref: 'v1', start_line: 50 },
      { path: 'untracked.txt', ref: 'HEAD' },
      { path: 'docs/guide.md', ref: 'HEAD~2' },
      inEmpty({ path: 'x' }),
    ],
    git_log: [
      { start_timestamp: '2030-01-01', end_timestamp: '2020-01-01' },
      { ref: 'other', path: 'docs' },
      inEmpty({}),
      inEmpty({ ref: 'main' }),
    ],
    git_show: [inEmpty({ revision: 'HEAD' }), { revision: 'HEAD', paths: ['missing'] }],
    git_diff: [inEmpty({ target: 'HEAD' }), { target: 'HEAD', paths: ['missing'], context_lines: 0 }],
    git_diff_staged: [inEmpty({})],
    git_diff_unstaged: [inEmpty({})],
    git_reflog: [inEmpty({}), { ref: 'other' }, { ref: 'v1' }],
    git_status: [inEmpty({})],
    git_branch: [inEmpty({}), { contains: 'nope', not_contains: 'nope' }],
    git_worktree_list: [inEmpty({})],
    git_commit: [inEmpty({ message: 'x' }), { repo_path: 'app', message: '' }],
    git_add: [inEmpty({ files: ['.'] }), { files: ['.', 'missing.txt'] }],
    git_reset: [inEmpty({})],
    git_create_branch: [
      inEmpty({ branch_name: 'x' }),
      { branch_name: 'x', base_branch: 'v1' },
      { branch_name: 'x', base_branch: 'HEAD^{tree}' },
    ],
    git_checkout: [inEmpty({ branch_name: 'main' }), { branch_name: 'v1' }, { branch_name: 'main' }],
    git_stash: [
      { action: 'pop' },
      { action: 'push', include_untracked: true, message: 'x\ny' },
      inEmpty({ action: 'push' }),
      inEmpty({ action: 'pop' }),
      { action: 'list', message: 'ignored?' },
    ],
    git_tag: [
      { action: 'create' },
      { action: 'create', name: 'v1' },
      { action: 'create', name: 'v2', target: 'nope' },
      { action: 'create', name: 'v2', target: 'HEAD^{tree}', message: '' },
      { action: 'list', name: 'x', target: 'y' },
      inEmpty({ action: 'create', name: 'x' }),
    ],
    git_generate_commit_message: [inEmpty({}), { hint: 'x'.repeat(2000) }],
  };
}
