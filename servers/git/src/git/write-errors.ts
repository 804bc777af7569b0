/**
 * The failures of commands that change a repository, as one sentence each: a missing identity
 * (git is told never to guess one from the host name), changes a branch switch or a stash would
 * overwrite, a branch checked out elsewhere; anything else is git's own reason with host paths
 * replaced by their display form.
 */
import { UserError } from '@mcpkit/core/errors';
import type { RootSet } from '@mcpkit/core/roots';
import { GitFailed, gitError } from './errors.js';
import type { Repository } from './repository.js';
import { shown } from './values.js';

/**
 * `-c` options before a command that records who made something (commit, annotated tag, stash):
 * only an identity set in a configuration file counts, not `user@hostname` guessed from the host.
 */
export const IDENTITY_FROM_CONFIG: readonly string[] = ['-c', 'user.useConfigOnly=true'];

/** The host paths of a repository paired with what may be shown instead (longest first). */
export function hiddenPaths(repo: Repository, roots: RootSet): Array<[string, string]> {
  const places = [repo.gitDir, repo.commonDir, repo.top].sort((a, b) => b.length - a.length);
  return places.map((place) => [place, roots.display(place)]);
}

/** The file names git lists (tab-indented) under "would be overwritten", shortened for a sentence. */
function listedFiles(stderr: string): string {
  const files = stderr
    .split('\n')
    .filter((line) => line.startsWith('\t'))
    .map((line) => shown(line.trim()));
  if (files.length === 0) return 'some files';
  const head = files.slice(0, 5).join(', ');
  return files.length > 5 ? `${head} and ${files.length - 5} more` : head;
}

/** True when git refused because it has no configured identity. */
export function identityMissing(stderr: string): boolean {
  return /auto-detection is disabled|identity unknown|empty ident name|unable to auto-detect/i.test(stderr);
}

/** The sentence for a missing identity. */
export function identityError(what: string): UserError {
  return new UserError(
    `${what} needs to know who you are: set your name and email with ` +
      '`git config --global user.name "Your Name"` and `git config --global user.email "you@example.com"`, then try again.',
  );
}

/** A one-sentence `UserError` for a failed write command (`what`: "Committing", "Switching to 'x'"…). */
export function writeError(what: string, error: unknown, repo: Repository, roots: RootSet): Error {
  if (!(error instanceof GitFailed)) return gitError(what, error);
  const stderr = error.stderr;
  if (identityMissing(stderr)) return identityError(what);
  if (/untracked working tree files would be (overwritten|removed)/.test(stderr)) {
    return new UserError(
      `${what} would overwrite untracked or ignored files (${listedFiles(stderr)}); move them away or commit them first.`,
    );
  }
  if (/local changes to the following files would be overwritten/.test(stderr)) {
    return new UserError(
      `${what} would overwrite uncommitted changes in ${listedFiles(stderr)}; commit them (git_commit) or stash them (git_stash) first.`,
    );
  }
  if (/is already checked out at|is already used by worktree at/.test(stderr)) {
    return new UserError(
      `${what} failed: that branch is checked out in another work tree (git_worktree_list shows which); switch there, or pick another branch.`,
    );
  }
  return gitError(what, error, hiddenPaths(repo, roots));
}
