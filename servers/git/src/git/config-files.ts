/**
 * The configuration git reads before it can answer anything, looked at before git is started on a
 * repository: its `HEAD`, `commondir` and `config` files, and every file that configuration
 * includes (`include.path`, `includeIf.<condition>.path`, included files' own includes). A FIFO
 * among them makes every command wait for a writer that never comes (measured on git 2.39:
 * `rev-parse` and `status` both waited until killed), and git has no option to skip includes. So
 * each is looked at with `stat`, which never opens it, before git reads it.
 *
 * An `includeIf` is followed whatever its condition: a FIFO behind a condition that would not
 * hold is refused too, which costs nothing a user needs.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { runProcess } from '@mcpkit/core/progress';
import { hardenedEnv, userHome } from './hardening.js';
import { gitFileShown, isSpecial, waitRefusal } from './special-files.js';

/**
 * Where a repository keeps its own files: its git directory, the common one of a linked work
 * tree, and the folder holding its `.git` (what messages name them from).
 */
export interface GitDirs {
  readonly top: string;
  readonly gitDir: string;
  readonly commonDir: string;
}

/** Git stops following includes deeper than this (`include.c`'s MAX_INCLUDE_DEPTH). */
const MAX_DEPTH = 10;
/** Files followed at most in one repository: past this, the run's deadline bounds what is left. */
const MAX_FILES = 100;

/**
 * The git directories git will find from `dir`, found as its discovery does: the nearest `.git`
 * folder, or `.git` file naming one (`gitdir: …`), from `dir` up. `undefined` when there is none,
 * or it cannot be read: git then answers for itself.
 */
export async function locateGitDirs(dir: string): Promise<GitDirs | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return withCommonDir(at, await realpath(dotGit));
    if (info?.isFile() && info.size < 64 * 1024) {
      const named = /^gitdir: (.+?)\r?\n?$/.exec(await readFile(dotGit, 'utf8'))?.[1];
      if (named === undefined) return undefined;
      const gitDir = await realpath(resolve(at, named)).catch(() => undefined);
      return gitDir === undefined ? undefined : withCommonDir(at, gitDir);
    }
    if (info !== undefined || dirname(at) === at) return undefined;
  }
}

/** `gitDir` with the common directory its `commondir` file names (a linked work tree), or itself. */
async function withCommonDir(at: string, gitDir: string): Promise<GitDirs> {
  const top = await realpath(at);
  const file = join(gitDir, 'commondir');
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size > 64 * 1024)
    return { top, gitDir, commonDir: gitDir };
  const named = (await readFile(file, 'utf8')).trim();
  const commonDir = await realpath(resolve(gitDir, named)).catch(() => gitDir);
  return { top, gitDir, commonDir };
}

/**
 * Refuses, in one sentence, a repository whose own files git reads first, or a file its
 * configuration includes, is a FIFO, socket or device. `signal` stops the reads of included
 * configuration.
 */
export async function refuseWaitingConfig(dirs: GitDirs, signal?: AbortSignal): Promise<void> {
  const fixed = [
    [join(dirs.gitDir, 'HEAD'), 'HEAD'],
    [join(dirs.gitDir, 'commondir'), 'commondir'],
    [join(dirs.commonDir, 'config'), 'config'],
    [join(dirs.gitDir, 'config.worktree'), 'config.worktree'],
  ] as const;
  for (const [path, name] of fixed) {
    if (await isSpecial(path)) throw new UserError(waitRefusal(gitFileShown(dirs.top, path, name)));
  }
  const configs: string[] = [];
  for (const [path] of fixed.slice(2)) {
    if (
      await stat(path).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      configs.push(path);
  }
  await refuseWaitingIncludes(configs, signal);
}

/** Refuses, in one sentence, configuration `files` that include a FIFO, socket or device, at any depth. */
export async function refuseWaitingIncludes(files: readonly string[], signal?: AbortSignal): Promise<void> {
  const seen = new Set<string>();
  const follow = async (file: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || seen.size >= MAX_FILES || seen.has(file)) return;
    seen.add(file);
    for (const value of await includesOf(file, signal)) {
      const target = includeTarget(value, file);
      if (target === undefined) continue;
      const info = await stat(target).catch(() => undefined);
      if (info === undefined) continue; // git skips an include that is not there
      if (!info.isFile() && !info.isDirectory()) {
        throw new UserError(
          waitRefusal(
            'a file the repository\'s configuration includes ("include.path")',
            'remove that include',
          ),
        );
      }
      if (info.isFile()) await follow(target, depth + 1);
    }
  };
  for (const file of files) await follow(file, 0);
}

/**
 * The include paths `file` sets. Git's own reader parses the file, without following its includes;
 * a file that cannot hold one (no "include" anywhere, in any case) is not handed to git at all.
 */
async function includesOf(file: string, signal?: AbortSignal): Promise<string[]> {
  const text = await readFile(file, 'latin1').catch(() => '');
  if (!/include/i.test(text)) return [];
  // A git directory that cannot exist: without it, git would look for a repository from where it
  // runs and read that one's configuration, includes and all (measured: it waited on the FIFO).
  const env = hardenedEnv({ gitDir: '/dev/null/none', workTree: '', globalConfig: '/dev/null' });
  delete env.GIT_WORK_TREE;
  const listed = await runProcess('git', ['config', '--file', file, '--no-includes', '--list', '-z'], {
    env,
    timeoutMs: 10_000,
    ...(signal ? { signal } : {}),
  });
  if (listed.code !== 0) return []; // a file git cannot parse stops git itself, with its own error
  const paths: string[] = [];
  for (const record of listed.stdout.split('\0')) {
    const newline = record.indexOf('\n');
    if (newline > 0 && /^include(if\..+)?\.path$/i.test(record.slice(0, newline))) {
      paths.push(record.slice(newline + 1));
    }
  }
  return paths;
}

/**
 * Where git looks for an include `value` written in `file`: `~/` is the home every git process is
 * given, a relative path is beside the file. `%(prefix)/` (git's install) and `~user/` (another
 * user's home) are not followed.
 */
function includeTarget(value: string, file: string): string | undefined {
  if (value === '' || value.startsWith('%(prefix)/')) return undefined;
  if (value.startsWith('~')) {
    const home = userHome();
    return home && (value === '~' || value.startsWith('~/')) ? join(home, value.slice(1)) : undefined;
  }
  return isAbsolute(value) ? value : resolve(dirname(file), value);
}
