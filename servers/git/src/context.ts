import { isAbsolute } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { type Call, type Lookup, withContext } from '@mcpkit/core/server';
import * as z from 'zod';
import type { DiffRuns } from './git/diff-runs.js';
import { findRepositories } from './git/find-repositories.js';
import { openRepository, type RepositoryCache } from './git/open-repository.js';
import type { Repository } from './git/repository.js';
import { shown } from './git/values.js';

/**
 * The git server's own state, made once per app: the vetted user configuration (written on first
 * use), what is known of each repository, the diffs being paged, and the repository tools use when
 * `repo_path` is left out.
 */
export interface GitContext {
  readonly repositories: RepositoryCache;
  /** Diff outputs whose later pages are still to be read. */
  readonly diffRuns: DiffRuns;
  /** The `--repository` given first, or the only allowed directory: the default `repo_path`. */
  readonly defaultRepository: string | undefined;
}

export const { defineTool, definePrompt, defineResource, defineResourceTemplate } = withContext<GitContext>();

/** What every git handler gets. */
export type GitCall = Call<GitContext>;
/** What git listings and completions get. */
export type GitLookup = Lookup<GitContext>;

/** `repo_path`, as every tool of this server takes it: resolved by {@link repositoryOf}. */
export const repoPathArg = z
  .string()
  .optional()
  .describe('The repository; default: the one the server was started with');

/**
 * The repository a call names (`repo_path`: a path, or a name the resources use such as
 * "repos/app"; or the default one), opened and checked against the call's allowed directories.
 */
export async function repositoryOf(
  call: GitCall | GitLookup,
  repoPath: string | undefined,
): Promise<Repository> {
  const path = repoPath ?? call.context.defaultRepository;
  if (path === undefined) {
    throw new UserError(
      'Give repo_path: the server was started with more than one place to look for repositories.',
    );
  }
  const roots = await call.roots();
  const signal = 'signal' in call ? call.signal : undefined;
  const named = isAbsolute(path) ? undefined : (await findRepositories(roots)).find((r) => r.name === path);
  return openRepository(named?.path ?? path, roots, call.context.repositories, signal);
}

/** The repository a resource URI names by its display name ("app", "src/app"). */
export async function repositoryNamed(call: GitCall | GitLookup, name: string): Promise<Repository> {
  const roots = await call.roots();
  const found = (await findRepositories(roots)).find((r) => r.name === name);
  if (!found)
    throw new UserError(`No repository is named "${shown(name)}" here; list the resources to see the names.`);
  return openRepository(found.path, roots, call.context.repositories);
}

/** The names of the repositories this call or listing may see. */
export async function repositoryNames(call: GitCall | GitLookup): Promise<string[]> {
  return (await findRepositories(await call.roots())).map((r) => r.name);
}
