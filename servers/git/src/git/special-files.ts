/**
 * Files inside a repository that git opens by name, blocking: a FIFO there (or a device, through a
 * link) makes the command wait for a writer that never comes, until its deadline. Git has no
 * option to skip them, and a repository copied from someone (an archive, a shared folder) can
 * hold any kind of file, so they are looked at first, with `stat`, which never opens the file.
 * Measured on git 2.39 (see the FIFO tests); each name below hung at least one command the server
 * runs. Files outside the repository named by its configuration are pinned in `hardening.ts`
 * instead; a `.gitignore` in a folder below the top, read by status's walk of the whole tree, is
 * not looked for here (that would be the walk itself): the run's deadline bounds it.
 */
import { lstat, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UserError } from '@mcpkit/core/errors';

/**
 * Files of the git directory, or of the common one in a linked work tree, that git opens
 * following links: the index, refs it reads whole, and the information files.
 */
const GIT_FILES = [
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
 * Refuses, in one sentence, a repository where git would wait on one of the files above: in the
 * git directories, at the top of the work tree, and in `folders` (relative, `/`-separated) of it.
 */
export async function refuseSpecialFiles(
  repo: RepositoryPlaces,
  folders: readonly string[] = [],
): Promise<void> {
  const gitDirs = [...new Set([repo.gitDir, repo.commonDir])];
  const checks: Array<Promise<string | undefined>> = [];
  for (const dir of gitDirs) {
    for (const name of GIT_FILES) {
      const path = join(dir, name);
      // `.git/index` in the usual layout; a linked work tree's git directory lies elsewhere.
      const inside = relative(repo.top, path).split(sep).join('/');
      const shown = inside.startsWith('../') ? `the git directory's "${name}"` : `"${inside}"`;
      checks.push(special(path, stat, shown));
    }
  }
  for (const folder of new Set(['', ...folders])) {
    for (const name of TREE_FILES) {
      const shown = folder === '' ? name : `${folder}/${name}`;
      checks.push(special(join(repo.top, shown), lstat, `"${shown}"`));
    }
  }
  const found = (await Promise.all(checks)).find((what) => what !== undefined);
  if (found !== undefined) {
    throw new UserError(
      `Git would wait forever on ${found} in this repository, which is a FIFO, socket or device instead of a regular file; remove it to use the repository.`,
    );
  }
}

/** `what`, when `path` is there and is neither a file nor a folder; a path git cannot open either is no concern. */
async function special(
  path: string,
  look: typeof stat | typeof lstat,
  what: string,
): Promise<string | undefined> {
  const info = await look(path).catch(() => undefined);
  return info && !info.isFile() && !info.isDirectory() && !info.isSymbolicLink() ? what : undefined;
}

/** The folders from the top of the work tree down to the one holding `file` (`a/b/c` → `a`, `a/b`). */
export function foldersOf(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
