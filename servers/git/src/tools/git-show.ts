/**
 * The official `git_show`: a commit's metadata and its changes. `revision` must name a commit (a
 * branch, tag, hash or `HEAD~2`); the `rev:path` form of `git show` is not taken, since the git://
 * resources read a file at a ref. Like the official one, a merge is shown against its first parent.
 * The diff is paged like the other diffs (see `diff-pages.ts`): the commit comes on the first page.
 */
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { diffArgs, diffOutput, runDiff } from '../git/diff-run.js';
import { gitError } from '../git/errors.js';
import { CommitSchema, commitText, LOG_FORMAT, parseLog } from '../git/parse-log.js';
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
    let commit: z.infer<typeof CommitSchema> | undefined;
    if (!args.cursor) {
      const argv = [
        'log',
        '-1',
        '-z',
        '--no-color',
        '--encoding=UTF-8',
        LOG_FORMAT,
        '--end-of-options',
        sha,
        '--',
      ];
      const out = await repo.run(argv, { signal: call.signal }).catch((error: unknown) => {
        throw gitError('git show', error, [[repo.top, '.']]);
      });
      commit = parseLog(out.stdout, Math.floor(call.app.outputLimitBytes / 4))[0];
    }
    const result = await runDiff(call, repo, args, {
      tool: 'git_show',
      title: `Revision ${shown(revision)}`,
      empty: 'The commit changes no file.',
      command: ['show', '--format=', '--root', '--diff-merges=first-parent'],
      revisions: [sha],
      ...(commit ? { header: commitText(commit) } : {}),
    });
    return { text: result.text, structured: { ...result.structured, ...(commit ? { commit } : {}) } };
  },
});
