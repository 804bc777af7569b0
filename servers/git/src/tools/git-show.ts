/**
 * The official `git_show`: a commit's metadata and its changes. `revision` must name a commit (a
 * branch, tag, hash or `HEAD~2`); the `rev:path` form of `git show` is not taken, since the git://
 * resources read a file at a ref. Like the official one, a merge is shown against its first parent.
 * The diff is paged like the other diffs (see `diff-pages.ts`): the commit comes on the first page.
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { diffArgs, diffOutput, runDiff } from '../git/diff-run.js';
import { CommitSchema } from '../git/parse-log.js';
import { resolveCommit, shown } from '../git/values.js';

/** `git show <sha>`: the commit, then its diff against its first parent (or everything, for a root). */
export const gitShow = defineTool({
  name: 'git_show',
  title: 'Git show',
  description:
    'Shows a commit: its hash, author, date and full message, the files it changed, and its diff (a merge ' +
    'against its first parent). A large diff comes in pages: pass the returned cursor to read the next one.',
  input: z.object({
    repo_path: repoPathArg,
    revision: z.string().describe('The commit to show: a hash, branch, tag or form like "HEAD~2"'),
    ...diffArgs,
  }),
  output: diffOutput.extend({ commit: CommitSchema.optional().describe('On the first page only') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ repo_path, revision, ...args }, call) {
    const repo = await repositoryOf(call, repo_path);
    const sha = await resolveCommit(repo, 'revision', revision, call.signal);
    // One run: the first page's `git show` prints the commit ahead of its patch (see `diff-pages.ts`).
    // `--sparse`: with paths the commit does not touch, git would otherwise print nothing at all,
    // not even the commit; it keeps the commit and leaves the patch empty.
    const { commit, ...result } = await runDiff(call, repo, args, {
      tool: 'git_show',
      title: `Revision ${shown(revision)}`,
      empty: 'The commit changes no file.',
      command: ['show', '--format=', '--encoding=UTF-8', '--sparse', '--root', '--diff-merges=first-parent'],
      revisions: [sha],
      commit: true,
    });
    return { text: result.text, structured: { ...result.structured, ...(commit ? { commit } : {}) } };
  },
});
