/** Completion sources the git prompts share: repositories, and refs of the repository already chosen. */
import type { CompletionContext } from '@mcpkit/core/completion';
import { type GitLookup, repositoryNames, repositoryOf } from '../context.js';
import { refNames } from '../git/ref-names.js';

export const completeRepository = (_typed: string, lookup: GitLookup) => repositoryNames(lookup);

/** Branches and tags of the repository named in `repo_path` (or the default one). */
export async function completeRef(_typed: string, lookup: GitLookup, context: CompletionContext | undefined) {
  const repo = await repositoryOf(lookup, context?.arguments?.repo_path || undefined);
  return refNames(repo);
}
