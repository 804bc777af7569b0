/**
 * The repositories a client can name without typing a path: each allowed directory that is a
 * repository, and the repositories directly inside one (a folder of repositories). One level
 * deep on purpose: a listing must stay cheap on a home directory.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RootSet } from '@mcpkit/core/roots';

/** A repository found in the allowed directories, by the name clients use for it. */
export interface FoundRepository {
  /** The display form of its folder ("app", "src/app"): what resource URIs and completion use. */
  readonly name: string;
  readonly path: string;
}

const isRepository = (dir: string) =>
  stat(join(dir, '.git')).then(
    () => true,
    () => false,
  );

/** The repositories in `roots`, in root order, then by name; at most `limit`. */
export async function findRepositories(roots: RootSet, limit = 500): Promise<FoundRepository[]> {
  const found: FoundRepository[] = [];
  for (const root of roots.roots) {
    if (found.length >= limit) break;
    if (await isRepository(root.path)) {
      found.push({ name: roots.display(root.path), path: root.path });
      continue;
    }
    const entries = await readdir(root.path, { withFileTypes: true }).catch(() => []);
    const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
    for (const name of dirs.sort()) {
      if (found.length >= limit) break;
      const path = join(root.path, name);
      if (await isRepository(path)) found.push({ name: roots.display(path), path });
    }
  }
  return found;
}
