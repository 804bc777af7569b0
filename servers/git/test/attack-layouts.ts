/**
 * Repository layouts that try to move git's work outside the allowed directories (SECURITY.md
 * Git 1): a work tree set by `core.worktree`, a `.git` file or a `.git` link to a git directory
 * elsewhere, a linked worktree whose common directory is elsewhere, a symlinked repository, a bare
 * repository; and a submodule whose own configuration names a filter. Made with plain git.
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { git, makeRepo } from './make-repo.js';

const ONE_COMMIT = [{ 'README.md': '# Repo\n' }];

/** A repository in `dir` whose configuration moves the work tree to `outsideTree`. */
export async function worktreeOutside(dir: string, outsideTree: string): Promise<string> {
  await makeRepo(dir, ONE_COMMIT);
  await mkdir(outsideTree, { recursive: true });
  await writeFile(join(outsideTree, 'README.md'), '# Outside\n');
  git(dir, 'config', 'core.worktree', outsideTree);
  return dir;
}

/** A work tree in `dir` whose `.git` is a file naming the git directory `outsideGitDir`. */
export async function gitFileOutside(dir: string, outsideGitDir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main', `--separate-git-dir=${outsideGitDir}`);
  git(dir, 'config', 'user.name', 'Test User');
  git(dir, 'config', 'user.email', 'test@example.com');
  await writeFile(join(dir, 'README.md'), '# Repo\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'one');
  return dir;
}

/** A work tree in `dir` whose `.git` is a symbolic link to a git directory under `outsideRepo`. */
export async function gitLinkOutside(dir: string, outsideRepo: string): Promise<string> {
  await makeRepo(outsideRepo, ONE_COMMIT);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'README.md'), '# Repo\n');
  await symlink(join(outsideRepo, '.git'), join(dir, '.git'));
  return dir;
}

/** A repository made at `outsideRepo`, reached through the symbolic link `link`. */
export async function symlinkedRepo(link: string, outsideRepo: string): Promise<string> {
  await makeRepo(outsideRepo, ONE_COMMIT);
  await symlink(outsideRepo, link);
  return link;
}

/** A bare repository in `dir`. */
export async function bareRepo(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '--bare', '-b', 'main');
  return dir;
}

/**
 * A linked worktree in `dir` whose own git directory is inside (`dir/../<name>.gitdir`) but whose
 * `commondir` (refs, objects, configuration) is the repository `outsideRepo`.
 */
export async function commondirOutside(dir: string, outsideRepo: string): Promise<string> {
  await makeRepo(outsideRepo, ONE_COMMIT);
  git(outsideRepo, 'worktree', 'add', '-q', dir);
  const ownGitDir = `${dir}.gitdir`;
  await rename(join(outsideRepo, '.git', 'worktrees', basename(dir)), ownGitDir);
  await writeFile(join(ownGitDir, 'commondir'), `${join(outsideRepo, '.git')}\n`);
  await writeFile(join(dir, '.git'), `gitdir: ${ownGitDir}\n`);
  return dir;
}

/**
 * A repository in `dir` with a submodule `sub` (from `source`) whose configuration, inside the
 * repository's own `.git/modules/sub/config`, names a clean filter for its `*.txt` files, and
 * whose `f.txt` is changed (same size, so git must clean it to compare). Returns the repository.
 */
export async function submoduleWithFilter(dir: string, source: string, markerDir: string): Promise<string> {
  await makeRepo(source, [{ '.gitattributes': '*.txt filter=subfilter\n', 'f.txt': 'aaaa\n' }]);
  await makeRepo(dir, ONE_COMMIT);
  git(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'sub');
  git(dir, 'commit', '-q', '-m', 'add sub');
  const script = join(dir, '.git', 'modules', 'sub', 'clean.sh');
  await writeFile(script, `#!/bin/sh\n: >> '${join(markerDir, 'submodule-filter-clean')}'\ncat\n`, {
    mode: 0o755,
  });
  git(join(dir, 'sub'), 'config', 'filter.subfilter.clean', script);
  await mkdir(markerDir, { recursive: true });
  await writeFile(join(dir, 'sub', 'f.txt'), 'bbbb\n');
  return dir;
}
