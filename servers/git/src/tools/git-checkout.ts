/**
 * The official `git_checkout`: switches the work tree to an existing local branch. The name must
 * be exactly a branch (`refs/heads/<name>` exists) before git sees it, because `git checkout` of
 * git 2.39 takes no `--end-of-options` and would read a stray value as a path or an option; then
 * `git switch` does the work, refusing (as git does) to overwrite uncommitted changes, and here
 * also ignored files, which plain git would overwrite silently.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { checkNewName, shown } from '../git/values.js';
import { writeError } from '../git/write-errors.js';

/** The official `git_checkout`, for local branches only. */
export const gitCheckout = defineTool({
  name: 'git_checkout',
  title: 'Git checkout branch',
  description:
    'Switches to an existing local branch. Refuses when uncommitted changes (or untracked files) would be ' +
    'overwritten: commit or stash them first. To start a new branch, use git_create_branch first.',
  input: z.object({
    repo_path: repoPathArg,
    branch_name: z.string().describe('The local branch to switch to, e.g. "main"'),
  }),
  output: z.object({ branch: z.string(), sha: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ repo_path, branch_name }, call) {
    checkNewName('branch name', branch_name);
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    const signal = call.signal;
    const ref = await repo.runRaw(['show-ref', '--verify', '--hash', `refs/heads/${branch_name}`], {
      signal,
    });
    const sha = ref.stdout.trim();
    if (ref.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
      throw new UserError(
        `There is no local branch "${shown(branch_name)}"; git_branch lists the branches, and git_create_branch makes one.`,
      );
    }
    try {
      await repo.run(['switch', '--quiet', '--no-guess', '--no-overwrite-ignore', branch_name], { signal });
    } catch (error) {
      throw writeError(`Switching to "${shown(branch_name)}"`, error, repo, roots);
    }
    return {
      text: `Switched to branch "${branch_name}" (${sha}).`,
      structured: { branch: branch_name, sha },
    };
  },
});
