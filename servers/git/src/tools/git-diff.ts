/**
 * The official `git_diff`: the work tree against a branch or commit. The target is resolved to a
 * commit SHA first and only the SHA reaches `git diff` (a target like `--output=…` is refused
 * before that). Paged rather than cut when larger than one result (see `diff-pages.ts`).
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { diffArgs, diffOutput, runDiff } from '../git/diff-run.js';
import { resolveCommit, shown } from '../git/values.js';

/** `git diff <sha>`: the work tree against the commit `target` names. */
export const gitDiff = defineTool({
  name: 'git_diff',
  title: 'Git diff against a commit',
  description:
    'Shows the differences between the working directory and a branch, tag or commit, starting with the list ' +
    'of changed files. A large diff comes in pages: pass the returned cursor to read the next one.',
  input: z.object({
    repo_path: repoPathArg,
    target: z.string().describe('The branch, tag or commit to compare with, e.g. "main" or "HEAD~2"'),
    ...diffArgs,
  }),
  output: diffOutput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ repo_path, target, ...args }, call) {
    const repo = await repositoryOf(call, repo_path);
    const sha = await resolveCommit(repo, 'target', target, call.signal);
    return runDiff(call, repo, args, {
      tool: 'git_diff',
      title: `Diff with ${shown(target)}`,
      empty: `No differences with ${shown(target)}.`,
      command: ['diff'],
      revisions: [sha],
    });
  },
});
