/**
 * The official `git_commit`: records what is staged. The message goes to git on stdin (`-F -`),
 * so no message is ever read as an option or a file name; hooks never run (the hardening points
 * `core.hooksPath` at nothing, and `--no-verify` says so again); no identity is guessed.
 */
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { GitFailed } from '../git/errors.js';
import { checkMessage } from '../git/message.js';
import { IDENTITY_FROM_CONFIG, identityError, identityMissing, writeError } from '../git/write-errors.js';

/** The official `git_commit`, answering with the new commit's SHA, its branch and what it changed. */
export const gitCommit = defineTool({
  name: 'git_commit',
  title: 'Git commit',
  description:
    'Records the staged changes as a new commit with the given message, and returns its hash. ' +
    'Stage files with git_add first. Hooks are not run.',
  input: z.object({
    repo_path: repoPathArg,
    message: z.string().describe('The commit message: a subject line, optionally a blank line and a body'),
  }),
  output: z.object({
    sha: z.string(),
    branch: z.string().nullable().describe('The branch the commit is on; null when HEAD is detached'),
    summary: z.string().describe('What the commit changed, e.g. "2 files changed, 5 insertions(+)"'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ repo_path, message }, call) {
    checkMessage('commit message', message);
    const repo = await repositoryOf(call, repo_path);
    const roots = await call.roots();
    const signal = call.signal;
    const out = await repo.runRaw(
      [
        ...IDENTITY_FROM_CONFIG,
        'commit',
        '--quiet',
        '--no-verify',
        '--no-gpg-sign',
        '--cleanup=whitespace',
        '-F',
        '-',
      ],
      { signal, input: message },
    );
    if (out.code !== 0) {
      if (identityMissing(out.stderr)) throw identityError('Committing');
      if (/nothing (added )?to commit|no changes added to commit/.test(out.stdout)) {
        throw new UserError(
          'Nothing is staged, so there is nothing to commit; stage changes with git_add first.',
        );
      }
      throw writeError('Committing', new GitFailed('commit', out), repo, roots);
    }
    const sha = (await repo.run(['rev-parse', '--verify', 'HEAD^{commit}'], { signal })).stdout.trim();
    const head = await repo.runRaw(['symbolic-ref', '--quiet', '--short', 'HEAD'], { signal });
    const branch = head.code === 0 ? head.stdout.trim() : null;
    const stat = await repo.runRaw(
      [
        'diff-tree',
        '--root',
        '-r',
        '-m',
        '--first-parent',
        '--no-commit-id',
        '--shortstat',
        '--no-ext-diff',
        '--no-textconv',
        sha,
      ],
      { signal },
    );
    const summary = stat.code === 0 && stat.stdout.trim() !== '' ? stat.stdout.trim() : 'no file changes';
    return {
      text: `Committed ${sha}${branch ? ` on ${branch}` : ' (detached HEAD)'}: ${summary}.`,
      structured: { sha, branch, summary },
    };
  },
});
