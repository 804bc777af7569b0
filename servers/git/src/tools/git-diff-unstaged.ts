/**
 * The official `git_diff_unstaged`: what changed in the work tree and is not staged yet. Paged
 * rather than cut when it is larger than one result (see `diff-pages.ts`).
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { diffArgs, diffOutput, runDiff } from '../git/diff-run.js';

/** `git diff`: the work tree against the index, with an overview of the files first. */
export const gitDiffUnstaged = defineTool({
  name: 'git_diff_unstaged',
  title: 'Git diff of unstaged changes',
  description:
    'Shows changes in the working directory that are not yet staged, starting with the list of changed files. ' +
    'A large diff comes in pages: pass the returned cursor to read the next one.',
  input: z.object({ repo_path: repoPathArg, ...diffArgs }),
  output: diffOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ repo_path, ...args }, call) {
    const repo = await repositoryOf(call, repo_path);
    return runDiff(call, repo, args, {
      tool: 'git_diff_unstaged',
      title: 'Unstaged changes',
      empty: 'No unstaged changes.',
      command: ['diff'],
      revisions: [],
    });
  },
});
