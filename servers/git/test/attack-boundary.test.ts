/**
 * The repository boundary (SECURITY.md Git 1): `openRepository` must refuse any repository whose
 * path, work tree, git directory or common directory lies outside the allowed directories, a bare
 * repository, and a configuration with a key the hardening cannot neutralise; each refusal is one
 * sentence without host paths, and nothing under `outside/` changes (SHA-256 of every file).
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isUserError } from '@mcpkit/core/errors';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filterDrivers } from '../src/git/open-repository.js';
import { type AttackFixture, attackFixture, withoutQuotedInput } from './attack-kit.js';
import {
  bareRepo,
  commondirOutside,
  gitFileOutside,
  gitLinkOutside,
  symlinkedRepo,
  worktreeOutside,
} from './attack-layouts.js';
import { git, makeRepo } from './make-repo.js';

let fx: AttackFixture;
let before: Map<string, string>;
beforeEach(async () => {
  fx = await attackFixture();
  await makeRepo(join(fx.outside, 'repo'), [{ 'README.md': '# Outside\n' }]);
});
afterEach(async () => {
  expect(await fx.markers()).toEqual([]);
  await fx.cleanup();
});

/** Opens `path` expecting a refusal matching `reason`; the message names no host path, outside/ is unchanged. */
async function refused(path: string, reason: RegExp, allowedKeys?: readonly string[]): Promise<string> {
  before = await fx.outsideState();
  const error = await fx.open(path, allowedKeys).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isUserError(error), `opening ${path} must be refused`).toBe(true);
  const message = (error as Error).message;
  expect(message).toMatch(reason);
  // The caller's own input may be quoted back; no other host path may appear (where it went).
  expect(withoutQuotedInput(message)).not.toContain(fx.base);
  expect(message).not.toMatch(/\n/);
  expect(await fx.outsideState()).toEqual(before);
  return message;
}

describe('repo_path outside the allowed directories', () => {
  it('refuses an absolute path outside', async () => {
    await refused(join(fx.outside, 'repo'), /denied|outside|allowed/i);
  });
  it('refuses a path climbing out with ..', async () => {
    await refused(join(fx.repos, '..', 'outside', 'repo'), /denied|outside|allowed/i);
  });
  it('refuses a relative path climbing out', async () => {
    await refused('../outside/repo', /denied|outside|allowed/i);
  });
  it('refuses ~ and ~/.ssh', async () => {
    await refused('~', /denied|outside|allowed|home/i);
    await refused('~/.ssh', /denied|outside|allowed|home/i);
  });
  it('refuses a symbolic link in the allowed directory that leads to a repository outside', async () => {
    const link = await symlinkedRepo(join(fx.repos, 'link'), join(fx.outside, 'linked'));
    await refused(link, /link|outside|denied/i);
  });
  it('refuses a folder inside whose repository is a parent outside', async () => {
    git(fx.base, 'init', '-q');
    await mkdir(join(fx.repos, 'plain'), { recursive: true });
    await refused(join(fx.repos, 'plain'), /outside the allowed directories/);
  });
  it('refuses control characters and a 2000-character path', async () => {
    await refused(`${fx.repos}/app\u0000x`, /./);
    await refused(`${fx.repos}/app\nx`, /./);
    await refused(join(fx.repos, 'a'.repeat(2000)), /./);
  });
});

describe('repository configuration that moves the work', () => {
  it('refuses core.worktree pointing outside', async () => {
    const repo = await worktreeOutside(join(fx.repos, 'wt'), join(fx.outside, 'tree'));
    await refused(repo, /work tree or git directory outside the allowed directories/);
  });
  it('refuses a .git file naming a git directory outside', async () => {
    const repo = await gitFileOutside(join(fx.repos, 'gf'), join(fx.outside, 'gitdir'));
    await refused(repo, /work tree or git directory outside the allowed directories/);
  });
  it('refuses a .git symbolic link to a git directory outside', async () => {
    const repo = await gitLinkOutside(join(fx.repos, 'gl'), join(fx.outside, 'target'));
    await refused(repo, /work tree or git directory outside the allowed directories/);
  });
  it('refuses a linked worktree whose common directory is outside', async () => {
    const repo = await commondirOutside(join(fx.repos, 'linked'), join(fx.outside, 'main'));
    await refused(repo, /work tree or git directory outside the allowed directories/);
  });
  it('refuses a bare repository', async () => {
    // On git 2.39 `--show-toplevel` fails first in a bare repository, so the sentence is the generic one.
    await refused(await bareRepo(join(fx.repos, 'bare.git')), /bare repository|not a git repository/);
  });
  it('refuses a file and a folder that is not a repository', async () => {
    await writeFile(join(fx.repos, 'file.txt'), 'x\n');
    await refused(join(fx.repos, 'file.txt'), /not a directory/);
    await mkdir(join(fx.repos, 'empty'));
    await refused(join(fx.repos, 'empty'), /not a git repository/);
  });
  it('ignores GIT_DIR and GIT_WORK_TREE of the server process', async () => {
    const inside = await makeRepo(join(fx.repos, 'app'), [{ 'a.txt': 'a\n' }]);
    const saved = { dir: process.env.GIT_DIR, tree: process.env.GIT_WORK_TREE };
    process.env.GIT_DIR = join(fx.outside, 'repo', '.git');
    process.env.GIT_WORK_TREE = join(fx.outside, 'repo');
    try {
      const repo = await fx.open(inside);
      const out = await repo.run(['ls-files']);
      expect(out.stdout.trim()).toBe('a.txt');
    } finally {
      for (const [name, value] of [
        ['GIT_DIR', saved.dir],
        ['GIT_WORK_TREE', saved.tree],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

/** Keys that run a program and that no `-c` can switch off: refused unless the operator allows them. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ['hook.evil.command', 'touch pwned'],
  ['submodule.lib.update', '!touch pwned'],
  ['trailer.sign.cmd', 'touch pwned'],
  ['trailer.sign.command', 'touch pwned'],
  ['uploadpack.packObjectsHook', 'touch pwned'],
];

describe('configuration keys that are refused', () => {
  it.each(REFUSED)(
    'refuses %s with a sentence naming the key, and allows it when the operator does',
    async (key, value) => {
      const repo = await makeRepo(join(fx.repos, 'keyed'), [{ 'a.txt': 'a\n' }]);
      git(repo, 'config', key, value);
      const message = await refused(repo, /would run a program/);
      expect(message).toContain(key.toLowerCase());
      expect(message).toMatch(/--allow-config-key/);
      await expect(fx.open(repo, [key])).resolves.toBeDefined();
    },
  );

  it('refuses a key that arrives through include.path', async () => {
    const repo = await makeRepo(join(fx.repos, 'included'), [{ 'a.txt': 'a\n' }]);
    await writeFile(
      join(repo, '.git', 'extra.inc'),
      '[hook "evil"]\n\tcommand = touch pwned\n\tevent = pre-commit\n',
    );
    git(repo, 'config', 'include.path', 'extra.inc');
    await refused(repo, /hook\.evil\.command/);
  });

  // `git config --local` skips .git/config.worktree: the keys there are read with --worktree.
  it('refuses a key in .git/config.worktree', async () => {
    const repo = await makeRepo(join(fx.repos, 'wtconfig'), [{ 'a.txt': 'a\n' }]);
    git(repo, 'config', 'extensions.worktreeConfig', 'true');
    git(repo, 'config', '--worktree', 'hook.evil.command', 'touch pwned');
    await refused(repo, /hook\.evil\.command/);
  });
});

describe('filters that arrive through include.path', () => {
  it('are found by --includes and neutralised, while plain git runs them', async () => {
    const repo = await makeRepo(join(fx.repos, 'inc'), [
      { '.gitattributes': '*.txt filter=inc\n', 'a.txt': 'a\n' },
    ]);
    const clean = join(repo, '.git', 'clean.sh');
    await writeFile(clean, `#!/bin/sh\n: >> '${join(fx.markerDir, 'include-filter')}'\ncat\n`, {
      mode: 0o755,
    });
    await writeFile(join(repo, '.git', 'filters.inc'), `[filter "inc"]\n\tclean = ${clean}\n`);
    git(repo, 'config', 'include.path', 'filters.inc');
    await writeFile(join(repo, 'a.txt'), 'b\n');
    const opened = await fx.open(repo);
    await opened.run(['add', '--', 'a.txt']);
    await opened.run(['status', '--porcelain=v2']);
    expect(await fx.markers()).toEqual([]);
    await writeFile(join(repo, 'a.txt'), 'c\n');
    git(repo, 'add', 'a.txt'); // control
    expect(await fx.markers()).toEqual(['include-filter']);
    await rm(join(fx.markerDir, 'include-filter'));
  });

  it('filterDrivers names every driver, dotted and cased ones included', () => {
    expect(
      filterDrivers([
        'filter.lfs.clean',
        'filter.a.b.smudge',
        'filter.Evil.process',
        'diff.x.textconv',
        'core.bare',
      ]),
    ).toEqual(['lfs', 'a.b', 'Evil']);
  });
});

describe('symlinks inside the work tree', () => {
  it('opens a repository whose tracked symlink points outside, without following it', async () => {
    const repo = await makeRepo(join(fx.repos, 'links'), [{ 'a.txt': 'a\n' }]);
    await symlink(join(fx.outside, 'secret.txt'), join(repo, 'leak.txt'));
    git(repo, 'add', 'leak.txt');
    git(repo, 'commit', '-q', '-m', 'link');
    before = await fx.outsideState();
    const opened = await fx.open(repo);
    const out = await opened.run(['show', '--no-ext-diff', '--no-textconv', 'HEAD']);
    expect(out.stdout).not.toContain('top secret');
    expect(await fx.outsideState()).toEqual(before);
  });
});
