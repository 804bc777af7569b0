/**
 * Files inside a repository that git opens by name, blocking: a FIFO there (or a device, through a
 * link) makes the command wait for a writer that never comes, until its deadline. Git has no
 * option to skip them, and a repository copied from someone (an archive, a shared folder) can
 * hold any kind of file, so they are looked at first, with `stat`, which never opens the file.
 * Measured on git 2.39 (see the FIFO tests); each name below hung at least one command the server
 * runs. Files outside the repository named by its configuration are pinned in `hardening.ts`
 * instead, and the files its configuration includes are looked at in `config-files.ts`; a `.gitignore` in a folder below the top, read by status's walk of the whole tree, is
 * not looked for here (that would be the walk itself): the run's deadline bounds it.
 */
import { lstat, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { UserError } from '@mcpkit/core/errors';

/**
 * Files of the git directory, or of the common one in a linked work tree, that git opens
 * following links: its configuration, the index, refs it reads whole, and the information files.
 */
const GIT_FILES = [
  'HEAD',
  'commondir',
  'config',
  'config.worktree',
  'index',
  'MERGE_HEAD',
  'packed-refs',
  'shallow',
  'info/attributes',
  'info/exclude',
  'info/sparse-checkout',
  'info/grafts',
  'objects/info/alternates',
  'objects/info/commit-graph',
];

/**
 * Files of the work tree git opens in a folder it reads: attributes for each file it converts,
 * ignore rules, and the mailmap blame always reads. Git refuses links there (it opens them with
 * `O_NOFOLLOW`), so a link is no danger: only the entry itself is looked at.
 */
const TREE_FILES = ['.gitattributes', '.gitignore', '.mailmap'];

export interface RepositoryPlaces {
  readonly top: string;
  readonly gitDir: string;
  readonly commonDir: string;
}

/**
 * A file `name` of the git directory as a message shows it: `".git/index"` in the usual layout,
 * without the host path where the git directory lies elsewhere (a linked work tree).
 */
export function gitFileShown(top: string, path: string, name: string): string {
  const inside = relative(top, path).split(sep).join('/');
  return inside.startsWith('../') || isAbsolute(inside) ? `the git directory's "${name}"` : `"${inside}"`;
}

/** The one sentence for a file git would wait on (`what`, already quoted or described). */
export function waitRefusal(what: string, remedy = 'remove it'): string {
  return `Git would wait forever on ${what} in this repository, which is a FIFO, socket or device instead of a regular file; ${remedy} to use the repository.`;
}

/**
 * Refuses, in one sentence, a repository where git would wait on one of the files above, in the
 * git directories or at the top of the work tree: every command may read them.
 */
export async function refuseSpecialFiles(repo: RepositoryPlaces): Promise<void> {
  const gitDirs = [...new Set([repo.gitDir, repo.commonDir])];
  const checks: Array<Promise<string | undefined>> = [];
  for (const dir of gitDirs) {
    for (const name of GIT_FILES) {
      const path = join(dir, name);
      checks.push(flagged(path, stat, gitFileShown(repo.top, path, name)));
    }
  }
  checks.push(...TREE_FILES.map((name) => flagged(join(repo.top, name), lstat, `"${name}"`)));
  await refuseFound(checks);
}

/**
 * Refuses, in one sentence, a repository where git would wait on an attributes, ignore or mailmap
 * file in one of `folders` (relative to the top, `/`-separated): what a command reading the
 * attributes of a file deep in the tree (blame) opens on the way down.
 */
export async function refuseSpecialTreeFiles(
  repo: RepositoryPlaces,
  folders: readonly string[],
): Promise<void> {
  const checks = [...new Set(folders)].flatMap((folder) =>
    TREE_FILES.map((name) => flagged(join(repo.top, folder, name), lstat, `"${folder}/${name}"`)),
  );
  await refuseFound(checks);
}

async function refuseFound(checks: Array<Promise<string | undefined>>): Promise<void> {
  const found = (await Promise.all(checks)).find((what) => what !== undefined);
  if (found !== undefined) throw new UserError(waitRefusal(found));
}

/** True when `path` is there and is neither a file nor a folder; a path git cannot open either is no concern. */
export async function isSpecial(path: string, look: typeof stat | typeof lstat = stat): Promise<boolean> {
  const info = await look(path).catch(() => undefined);
  return info !== undefined && !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
}

/** `what` when `path` is special. */
async function flagged(
  path: string,
  look: typeof stat | typeof lstat,
  what: string,
): Promise<string | undefined> {
  return (await isSpecial(path, look)) ? what : undefined;
}

/** The folders from the top of the work tree down to the one holding `file` (`a/b/c` → `a`, `a/b`). */
export function foldersOf(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
