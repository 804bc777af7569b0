/**
 * From a `repo_path` a client sent to a {@link Repository}, checked: the path resolves inside the
 * allowed directories (core's roots guard: segments, symlinks, `..`), and so do the work tree and
 * the git directories git itself reports, since a repository's configuration can move its work
 * tree (`core.worktree`) and a `.git` file can point anywhere. A repository whose configuration
 * sets a key that would run a program the hardening cannot switch off is refused.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { runProcess } from '@mcpkit/core/progress';
import type { RootSet } from '@mcpkit/core/roots';
import { locateGitDirs, refuseWaitingConfig, refuseWaitingIncludes } from './config-files.js';
import { hardenedArgs, hardenedEnv, refusedKeys } from './hardening.js';
import { Repository, type RepositoryFacts } from './repository.js';
import { refuseSpecialFiles } from './special-files.js';
import { shown } from './values.js';

/** What the server keeps between calls: the vetted user configuration and facts per repository. */
export interface RepositoryCache {
  readonly globalConfig: () => Promise<string>;
  /** Keys the operator allowed although they would run a program (`--allow-config-key`). */
  readonly allowedKeys: ReadonlySet<string>;
  readonly facts: Map<string, { facts: RepositoryFacts; stamp: string }>;
}

/** Opens the repository at `input` for a call whose allowed directories are `roots`. */
export async function openRepository(
  input: string,
  roots: RootSet,
  cache: RepositoryCache,
  signal?: AbortSignal,
): Promise<Repository> {
  const resolved = await roots.resolve(input);
  if (!resolved.exists || !(await stat(resolved.real)).isDirectory()) {
    throw new UserError(`"${shown(input)}" is not a directory; give the folder of a git repository.`);
  }
  const globalConfig = await cache.globalConfig();
  const cached = cache.facts.get(resolved.real);
  let facts = cached && (await stampOf(cached.facts)) === cached.stamp ? cached.facts : undefined;
  if (!facts) {
    const found = await discover(resolved.real, input, globalConfig, cache.allowedKeys, signal);
    facts = found.facts;
    // A configuration that includes other files can change without its own file changing.
    if (!found.includes) cache.facts.set(resolved.real, { facts, stamp: await stampOf(facts) });
  }
  for (const place of [facts.top, facts.gitDir, facts.commonDir]) {
    if (!roots.contains(place)) {
      throw new UserError(
        `The repository at "${shown(input)}" keeps its work tree or git directory outside the allowed directories, so it cannot be used.`,
      );
    }
  }
  // Every command may read these: a FIFO put there after the facts were cached is seen too.
  await refuseSpecialFiles(facts);
  return new Repository(facts, globalConfig);
}

/** Asks git where the repository lives (hardened, without pinning), and reads its configuration's keys. */
async function discover(
  dir: string,
  input: string,
  globalConfig: string,
  allowed: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<{ facts: RepositoryFacts; includes: boolean }> {
  const env = hardenedEnv({ gitDir: '', workTree: '', globalConfig });
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  const git = (args: string[]) =>
    runProcess('git', [...hardenedArgs([]), ...args], {
      cwd: dir,
      env,
      timeoutMs: 10_000,
      ...(signal ? { signal } : {}),
    });
  // Git reads the repository's configuration, includes and all, before it answers anything.
  const guess = await locateGitDirs(dir);
  if (guess) await refuseWaitingConfig(guess, signal);
  const where = await git([
    'rev-parse',
    '--path-format=absolute',
    '--is-bare-repository',
    '--absolute-git-dir',
    '--git-common-dir',
    '--show-toplevel',
  ]);
  if (where.code !== 0) {
    throw new UserError(
      `"${shown(input)}" is not a git repository with a work tree; give the folder that holds ".git" (bare repositories are not served).`,
    );
  }
  const [bare, gitDir, commonDir, top] = where.stdout.split('\n');
  if (bare === 'true' || !top || !gitDir || !commonDir || !isAbsolute(top)) {
    throw new UserError(
      `"${shown(input)}" is a bare repository; this server works on repositories with a work tree.`,
    );
  }
  const places = {
    top: await realpath(top),
    gitDir: await realpath(gitDir),
    commonDir: await realpath(commonDir),
  };
  // Git found another repository than the one guessed (a link, an odd layout): check its files too.
  if (guess?.gitDir !== places.gitDir || guess.commonDir !== places.commonDir) {
    await refuseWaitingConfig(places, signal);
  }
  // Every file of configuration the repository carries: its own, the work tree's
  // (`extensions.worktreeConfig`), and each submodule's, which a recursing status, diff or add reads.
  const submodules = await submoduleConfigs(commonDir);
  await refuseWaitingIncludes(submodules, signal);
  const keys: string[] = [];
  const sources = [['--local'], ['--worktree'], ...submodules.map((f) => ['--file', f])];
  for (const source of sources) {
    const listed = await git(['config', ...source, '--includes', '--name-only', '--list', '-z']);
    if (listed.code === 0) keys.push(...listed.stdout.split('\0').filter(Boolean));
  }
  const oddDriver = filterDrivers(keys).find((name) => name.includes('='));
  if (oddDriver !== undefined) {
    throw new UserError(
      `The repository at "${shown(input)}" declares a filter driver whose name holds "=", which cannot be switched off; rename it to use this repository.`,
    );
  }
  const refused = refusedKeys(keys).filter((key) => !allowed.has(key.toLowerCase()));
  if (refused.length > 0) {
    throw new UserError(
      `The repository at "${shown(input)}" sets ${refused.slice(0, 3).join(', ')} in its configuration, which would run a program; ` +
        'remove it, or start the server with --allow-config-key for that key if you trust it.',
    );
  }
  const facts = { ...places, drivers: filterDrivers(keys) };
  return { facts, includes: keys.some((key) => /^include(if\..+)?\.path$/i.test(key)) };
}

/** The configuration files of the submodules a repository holds (`<common dir>/modules/…/config`), at most 200. */
async function submoduleConfigs(commonDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 6 || found.length >= 200) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const inner = join(dir, entry.name);
      if (
        await stat(join(inner, 'config')).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        found.push(join(inner, 'config'));
      await walk(join(inner, 'modules'), depth + 1);
      if (depth === 0) await walk(inner, depth + 1); // names with "/" nest one directory per segment
    }
  };
  await walk(join(commonDir, 'modules'), 0);
  return found;
}

/** The names of the filter drivers among configuration keys (`filter.<name>.clean` → `<name>`). */
export function filterDrivers(keys: readonly string[]): string[] {
  const names = new Set<string>();
  for (const key of keys) {
    const match = /^filter\.(.+)\.[^.]+$/i.exec(key);
    if (match?.[1]) names.add(match[1]);
  }
  return [...names];
}

/**
 * What must stay the same for cached facts to hold: the configuration files (a new filter driver
 * must be seen at once) and the `.git` entry of the work tree.
 */
async function stampOf(facts: RepositoryFacts): Promise<string> {
  const files = [
    join(facts.commonDir, 'config'),
    join(facts.gitDir, 'config.worktree'),
    join(facts.top, '.git'),
  ];
  const parts: string[] = [];
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    parts.push(info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '-');
  }
  return parts.join('|');
}
