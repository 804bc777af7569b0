/**
 * The official `git_diff_staged`: what is staged for the next commit. Paged rather than cut when
 * it is larger than one result (see `diff-pages.ts`).
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { diffArgs, diffOutput, runDiff } from '../git/diff-run.js';

/** `git diff --cached`: the index against HEAD (or the empty tree before the first commit). */
export const gitDiffStaged = defineTool({
  name: 'git_diff_staged',
  title: 'Git diff of staged changes',
  description:
    'Shows changes that are staged for commit, starting with the list of changed files. ' +
    'A large diff comes in pages: pass the returned cursor to read the next one.',
  input: z.object({ repo_path: repoPathArg, ...diffArgs }),
  output: diffOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ repo_path, ...args }, call) {
    const repo = await repositoryOf(call, repo_path);
    return runDiff(call, repo, args, {
      tool: 'git_diff_staged',
      title: 'Staged changes',
      empty: 'No staged changes.',
      command: ['diff', '--cached'],
      revisions: [],
    });
  },
});
