/**
 * The official `git_create_branch`: a new branch at the tip of `base_branch` or of HEAD. The new
 * name is checked (no option, no range, no ref syntax) and the base resolved to a commit SHA
 * before git sees either; the branch tracks nothing. The current branch does not change.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { checkNewName, headCommit, resolveCommit, shown } from '../git/values.js';
import { writeError } from '../git/write-errors.js';

/** The official `git_create_branch`, answering with the commit the branch starts at. */
export const gitCreateBranch = defineTool({
  name: 'git_create_branch',
  title: 'Git create branch',
  description:
    'Creates a new branch at the tip of base_branch (any branch, tag or commit; default: the current HEAD). ' +
    'Does not switch to it: use git_checkout for that.',
  input: z.object({
    repo_path: repoPathArg,
    branch_name: z.string().describe('The name of the new branch, e.g. "feature/login"'),
    base_branch: z
      .string()
      .optional()
      .describe('Where the branch starts: a branch, tag or commit; default HEAD'),
  }),
  output: z.object({ branch: z.string(), sha: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ repo_path, branch_name, base_branch }, call) {
    checkNewName('branch name', branch_name);
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    const signal = call.signal;
    const sha =
      base_branch === undefined
        ? await headCommit(repo, signal)
        : await resolveCommit(repo, 'base branch', base_branch, signal);
    if (!sha)
      throw new UserError(
        'The repository has no commit yet, so a branch has nowhere to start; commit first.',
      );
    try {
      await repo.run(['branch', '--no-track', '--', branch_name, sha], { signal });
    } catch (error) {
      throw writeError(`Creating branch "${branch_name}"`, error, repo, roots);
    }
    const from = base_branch === undefined ? 'HEAD' : `"${shown(base_branch)}"`;
    return {
      text: `Created branch "${branch_name}" at ${sha} (from ${from}); the current branch did not change.`,
      structured: { branch: branch_name, sha },
    };
  },
});
