/**
 * The hostile repository of the attack tests (SECURITY.md, Git 3 and 4): a `.git` someone handed
 * over, whose configuration sets every key that can make git run a program and whose hooks folder
 * holds every hook. Each program is a small shell script that leaves its own named marker file in
 * a folder outside the repository, so a test proves "nothing ran" by finding that folder empty,
 * and proves the generator works by finding markers after plain, unhardened git.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURE_ENV, git, makeRepo } from './make-repo.js';

/** Every hook githooks(5) names (git 2.39 to 2.5x): each is installed, and each must never run. */
export const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
] as const;

/** What a script does after leaving its marker: pass stdin through, cat its file argument, fail or succeed. */
type Tail = 'cat' | 'cat-arg' | 'fail' | 'ok';

/**
 * Every configuration key that names a program, with the marker its script leaves. A value of
 * `!x`/`ext::x` is written with that prefix; `core.hooksPath` names a folder of hooks instead.
 */
export const PROGRAM_KEYS: ReadonlyArray<readonly [key: string, marker: string, tail: Tail]> = [
  ['core.fsmonitor', 'fsmonitor', 'fail'],
  ['diff.external', 'diff-external', 'ok'],
  ['filter.evil.clean', 'filter-clean', 'cat'],
  ['filter.evil.smudge', 'filter-smudge', 'cat'],
  ['filter.evilproc.process', 'filter-process', 'fail'],
  ['diff.evil.textconv', 'textconv', 'cat-arg'],
  ['diff.evilcmd.command', 'diff-driver-command', 'ok'],
  ['merge.evil.driver', 'merge-driver', 'fail'],
  ['core.pager', 'core-pager', 'cat'],
  ...['status', 'diff', 'log', 'show', 'blame', 'branch', 'tag', 'stash', 'reflog', 'grep', 'config'].map(
    (cmd) => [`pager.${cmd}`, `pager-${cmd}`, 'cat'] as const,
  ),
  ['core.editor', 'core-editor', 'fail'],
  ['sequence.editor', 'sequence-editor', 'fail'],
  ['gpg.program', 'gpg-program', 'fail'],
  ['gpg.openpgp.program', 'gpg-openpgp-program', 'fail'],
  ['gpg.x509.program', 'gpg-x509-program', 'fail'],
  ['gpg.ssh.program', 'gpg-ssh-program', 'fail'],
  ['gpg.ssh.defaultKeyCommand', 'gpg-ssh-default-key-command', 'fail'],
  ['core.sshCommand', 'ssh-command', 'fail'],
  ['core.gitProxy', 'git-proxy', 'fail'],
  ['credential.helper', 'credential-helper', 'fail'],
  ['core.askPass', 'askpass', 'fail'],
  ['remote.origin.uploadpack', 'uploadpack', 'fail'],
  ['remote.origin.receivepack', 'receivepack', 'fail'],
  ['remote.ext.url', 'ext-transport', 'fail'],
  ['core.alternateRefsCommand', 'alternate-refs-command', 'fail'],
  ['alias.st', 'alias-st', 'ok'],
  ['alias.lg', 'alias-lg', 'ok'],
  ['interactive.diffFilter', 'interactive-diff-filter', 'cat'],
  ['diff.tool', '', 'ok'],
  ['difftool.evil.cmd', 'difftool', 'ok'],
  ['merge.tool', '', 'ok'],
  ['mergetool.evil.cmd', 'mergetool', 'ok'],
  ['web.browser', '', 'ok'],
  ['browser.evil.cmd', 'browser', 'ok'],
  ['man.viewer', '', 'ok'],
  ['man.evil.cmd', 'man-viewer', 'ok'],
];

/** Plain values that arm the programs above: signing everywhere, every protocol, gc on each commit. */
export const ARMING_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['commit.gpgSign', 'true'],
  ['tag.gpgSign', 'true'],
  ['tag.forceSignAnnotated', 'true'],
  ['log.showSignature', 'true'],
  ['user.signingKey', 'DEADBEEF'],
  ['remote.origin.url', '.'],
  ['remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*'],
  ['remote.ssh.url', 'ssh://git.invalid/x.git'],
  ['protocol.allow', 'always'],
  ['protocol.ext.allow', 'always'],
  ['protocol.file.allow', 'always'],
  ['gc.auto', '1'],
  ['gc.autoDetach', 'false'],
  ['maintenance.auto', 'true'],
  ['core.hooksPath', 'HOOKS_PATH'],
];

/** Where a variant puts the hostile keys. */
export type Placement = 'config' | 'include' | 'worktree-config';

export interface HostileOptions {
  /** `include`: in files pulled in by `include.path` and `includeIf.gitdir:`; `worktree-config`: in `.git/config.worktree`. */
  placement?: Placement;
  /** Extra raw keys (e.g. a refused `hook.x.command`) written after the others. */
  extra?: ReadonlyArray<readonly [string, string]>;
  /** Name the clean/smudge filter driver this (e.g. `x=y`, which a `-c` pair cannot address). */
  filterName?: string;
}

/** A made hostile repository. */
export interface HostileRepo {
  readonly repo: string;
  readonly gitDir: string;
  readonly markerDir: string;
  /** Names of the marker files present now, sorted. */
  markers(): Promise<string[]>;
}

/** The marker files in `markerDir`, sorted (none when the folder is missing). */
export async function markersIn(markerDir: string): Promise<string[]> {
  return (await readdir(markerDir).catch(() => [] as string[])).sort();
}

const quoted = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A script that leaves `markerDir/marker` and then does `tail`. */
async function script(path: string, markerDir: string, marker: string, tail: Tail): Promise<void> {
  const rest = { cat: 'cat', 'cat-arg': 'cat "$1"', fail: 'exit 1', ok: 'exit 0' }[tail];
  await writeFile(path, `#!/bin/sh\n: >> ${quoted(join(markerDir, marker))}\n${rest}\n`);
  await chmod(path, 0o755);
}

/** Configuration file text for `key → value` pairs (subsections from the middle of the key). */
export function configFile(pairs: ReadonlyArray<readonly [string, string]>): string {
  const lines: string[] = [];
  for (const [key, value] of pairs) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const section = key.slice(0, first);
    const sub = first === last ? '' : ` "${key.slice(first + 1, last).replaceAll('"', '\\"')}"`;
    const text = value.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
    lines.push(`[${section}${sub}]`, `\t${key.slice(last + 1)} = "${text}"`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `.git/hostile-bin/*` scripts and returns the hostile configuration pairs. Scripts live in
 * the git directory, as they would in a handed-over `.git`.
 */
async function hostilePairs(
  gitDir: string,
  markerDir: string,
  filterName: string,
): Promise<Array<[string, string]>> {
  const bin = join(gitDir, 'hostile-bin');
  const hooksPath = join(gitDir, 'hostile-hooks');
  await mkdir(bin, { recursive: true });
  await mkdir(hooksPath, { recursive: true });
  const pairs: Array<[string, string]> = [];
  for (const [rawKey, marker, tail] of PROGRAM_KEYS) {
    const key = rawKey.replace(/^filter\.evil\./, `filter.${filterName}.`);
    if (marker === '') {
      pairs.push([key, 'evil']);
      continue;
    }
    const path = join(bin, marker);
    await script(path, markerDir, marker, tail);
    const prefix = key.startsWith('alias.') ? '!' : key === 'remote.ext.url' ? 'ext::' : '';
    pairs.push([key, `${prefix}${path}`]);
  }
  for (const hook of HOOKS) await script(join(hooksPath, hook), markerDir, `hookspath-${hook}`, 'ok');
  for (const [key, value] of ARMING_KEYS) pairs.push([key, value === 'HOOKS_PATH' ? hooksPath : value]);
  return pairs;
}

/** Runs the fixture's git with `input` on stdin (the kit's `git()` gives none). */
function gitInput(dir: string, input: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: FIXTURE_ENV, input, encoding: 'utf8' });
}

const SIGNATURE = [
  '-----BEGIN PGP SIGNATURE-----',
  '',
  'iQEzBAABCAAdFiEEhostile',
  '-----END PGP SIGNATURE-----',
];

/** Gives the commit at `ref` a fake signature, so `log.showSignature` would call `gpg.program`. */
function forgeSignedCommit(dir: string, ref: string): void {
  const body = git(dir, 'cat-file', 'commit', ref);
  const header = `gpgsig ${SIGNATURE.join('\n ')}`;
  const signed = body.replace('\n\n', `\n${header}\n\n`);
  git(dir, 'update-ref', ref, gitInput(dir, signed, 'hash-object', '-t', 'commit', '-w', '--stdin').trim());
}

/** A tag `v1-signed` whose message ends in a (fake) signature: verifying it would call `gpg.program`. */
function forgeSignedTag(dir: string): void {
  const object = git(dir, 'rev-parse', 'HEAD').trim();
  const text = [
    `object ${object}`,
    'type commit',
    'tag v1-signed',
    'tagger Test User <test@example.com> 1767225600 +0000',
    '',
    'signed release',
    ...SIGNATURE,
    '',
  ].join('\n');
  const sha = gitInput(dir, text, 'hash-object', '-t', 'tag', '-w', '--stdin').trim();
  git(dir, 'update-ref', 'refs/tags/v1-signed', sha);
}

/**
 * Makes the hostile repository in `dir` (two commits, a forged signed commit on `main`, a
 * `feature` branch, a `side` branch at `main`, tags `v1` and `v1-signed`, a staged change, unstaged changes to filtered files,
 * an untracked file, `.gitattributes` and `info/attributes` naming the filter, diff and merge
 * drivers), then arms it: every hook in `.git/hooks` and in `core.hooksPath`, every program key.
 */
export async function hostileRepo(
  dir: string,
  markerDir: string,
  options: HostileOptions = {},
): Promise<HostileRepo> {
  const filterName = options.filterName ?? 'evil';
  await mkdir(markerDir, { recursive: true });
  await makeRepo(dir, [
    {
      '.gitattributes': `*.txt filter=${filterName} diff=evil merge=evil\n*.dat filter=evilproc diff=evilcmd\n`,
      'README.md': '# Hostile\n',
      'notes.txt': 'line one\nline two\n',
      'data.dat': 'alpha\n',
      'src/main.ts': 'export const a = 1;\n',
    },
    { 'notes.txt': 'line one\nline two, changed\n', 'data.dat': 'beta\n' },
  ]);
  git(dir, 'tag', '-a', 'v1', '-m', 'release 1');
  git(dir, 'switch', '-q', '-c', 'feature');
  await writeFile(join(dir, 'feature.txt'), 'feature work\n');
  git(dir, 'add', 'feature.txt');
  git(dir, 'commit', '-q', '-m', 'feature work');
  git(dir, 'switch', '-q', 'main');
  await writeFile(join(dir, 'src/main.ts'), 'export const a = 2;\n');
  git(dir, 'commit', '-q', '-am', 'third');
  forgeSignedCommit(dir, 'refs/heads/main');
  forgeSignedTag(dir);
  git(dir, 'branch', 'side', 'main');
  const gitDir = join(dir, '.git');
  // Working-tree state: staged, unstaged (filtered files), untracked.
  await writeFile(join(dir, 'src/main.ts'), 'export const a = 3;\n');
  git(dir, 'add', 'src/main.ts');
  await writeFile(join(dir, 'notes.txt'), 'line one\nline two, changed again\n');
  await writeFile(join(dir, 'untracked.txt'), 'not tracked\n');
  await writeFile(join(gitDir, 'info', 'attributes'), `README.md filter=${filterName} diff=evil\n`);
  // Same size, other mtime: git must run the clean filter to know README.md is unchanged, every time.
  await utimes(join(dir, 'README.md'), new Date(86_400_000), new Date(86_400_000));
  // Arm it: hooks in .git/hooks, programs in the configuration (where the variant says).
  for (const hook of HOOKS) await script(join(gitDir, 'hooks', hook), markerDir, `hook-${hook}`, 'ok');
  const pairs = [...(await hostilePairs(gitDir, markerDir, filterName)), ...(options.extra ?? [])];
  await place(gitDir, pairs, options.placement ?? 'config');
  return { repo: dir, gitDir, markerDir, markers: () => markersIn(markerDir) };
}

/** Writes the pairs where the variant says, leaving the repository's own keys in `.git/config`. */
async function place(
  gitDir: string,
  pairs: ReadonlyArray<readonly [string, string]>,
  placement: Placement,
): Promise<void> {
  const config = join(gitDir, 'config');
  const own = await readFile(config, 'utf8');
  if (placement === 'config') {
    await writeFile(config, own + configFile(pairs));
  } else if (placement === 'include') {
    // Filters and core keys behind a condition that holds, the rest behind a plain include.
    const conditional = (key: string) => /^(filter|core)\./.test(key);
    await writeFile(join(gitDir, 'hostile.inc'), configFile(pairs.filter(([k]) => !conditional(k))));
    await writeFile(join(gitDir, 'hostile-if.inc'), configFile(pairs.filter(([k]) => conditional(k))));
    const includes: Array<[string, string]> = [
      ['include.path', 'hostile.inc'],
      [`includeIf.gitdir:${gitDir}.path`, 'hostile-if.inc'],
    ];
    await writeFile(config, own + configFile(includes));
  } else {
    await writeFile(config, own + configFile([['extensions.worktreeConfig', 'true']]));
    await writeFile(join(gitDir, 'config.worktree'), configFile(pairs));
  }
}
