/**
 * `git_reflog` (not in the official server): where HEAD or a branch pointed before, newest first:
 * what a reset, rebase or amend left behind. The ref must be a ref (HEAD, a branch, a tag), checked
 * by `rev-parse --symbolic-full-name` and passed in its full form after `--end-of-options`. Paged
 * by position; a reflog that grows between pages shifts by the entries added.
 */
import { UserError } from '@mcpkit/core/errors';
import { encodeBoundCursor } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { GitFailed, gitError } from '../git/errors.js';
import { logRecords, outputProgress } from '../git/output-progress.js';
import { parseReflog, REFLOG_FORMAT, REFLOG_RECORD_FIELDS, reflogLine } from '../git/parse-reflog.js';
import { decodeCursor, keyOf } from '../git/read-cursor.js';
import { READ_TIMEOUT_MS, type Repository } from '../git/repository.js';
import { checkValue, headCommit, shown } from '../git/values.js';

const Entry = z.object({
  selector: z.string(),
  sha: z.string(),
  date: z.string(),
  identity: z.string(),
  action: z.string(),
  subject: z.string(),
});

type ReflogPosition = { s: number };

/** The reflog of one ref, a page at a time. */
export const gitReflog = defineTool({
  name: 'git_reflog',
  title: 'Git reflog',
  description:
    'Shows where HEAD or a branch pointed before, newest first, and what moved it (commit, checkout, reset, ' +
    'rebase): the way back to commits a reset or amend left behind. Pass the returned cursor for older entries.',
  input: z.object({
    repo_path: repoPathArg,
    ref: z.string().default('HEAD').describe('HEAD, a branch or another ref'),
    max_count: z.number().int().min(1).max(10_000).default(20).describe('Entries per page'),
    cursor: z
      .string()
      .optional()
      .describe('The nextCursor of the previous page (with the same other arguments)'),
  }),
  output: z.object({ ref: z.string(), entries: z.array(Entry), nextCursor: z.string().optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ repo_path, ref, max_count, cursor }, call) {
    const repo = await repositoryOf(call, repo_path);
    const full = await fullRef(repo, ref, call.signal);
    const key = keyOf('git_reflog', repo.top, full);
    const skip = cursor
      ? decodeCursor<ReflogPosition>(call.app.cursors, 'git_reflog', cursor, key, { s: 'number' }).s
      : 0;
    const size = Math.min(max_count, call.app.resultPageSize);
    const argv = ['log', '-g', '-z', '--no-color', '--encoding=UTF-8', '--date=unix', REFLOG_FORMAT];
    argv.push(
      `--max-count=${size + 1}`,
      ...(skip > 0 ? [`--skip=${skip}`] : []),
      '--end-of-options',
      full,
      '--',
    );
    const reading = outputProgress(
      call.progress,
      logRecords(REFLOG_RECORD_FIELDS, ['entry', 'entries']),
      size,
    );
    reading.start('Reading the reflog');
    const out = await repo.runRaw(argv, {
      signal: call.signal,
      timeoutMs: READ_TIMEOUT_MS,
      onOutput: reading.onOutput,
    });
    // A repository without a commit has a HEAD with no entries yet: nothing to show, not a failure.
    const unborn = out.code !== 0 && full === 'HEAD' && (await headCommit(repo, call.signal)) === undefined;
    if (out.code !== 0 && !unborn) throw gitError('git reflog', new GitFailed('log', out), [[repo.top, '.']]);
    const read = unborn ? [] : parseReflog(out.stdout, skip);
    const entries = read.slice(0, size);
    const nextCursor =
      read.length > size
        ? encodeBoundCursor<ReflogPosition>(call.app.cursors, 'git_reflog', key, { s: skip + size })
        : undefined;
    reading.finish();
    const text =
      entries.length > 0
        ? [`Reflog of ${full}:`, ...entries.map(reflogLine)]
        : [`${full} has no reflog entries.`];
    if (nextCursor)
      text.push(
        `[Older entries follow: call git_reflog with the same arguments and cursor "${nextCursor}".]`,
      );
    return {
      text: text.join('\n'),
      structured: { ref: full, entries, ...(nextCursor ? { nextCursor } : {}) },
    };
  },
});

/** `HEAD`, or the full name of the ref `ref` names (`main` → `refs/heads/main`); a commit is refused. */
async function fullRef(repo: Repository, ref: string, signal: AbortSignal): Promise<string> {
  checkValue('ref', ref);
  if (ref === 'HEAD') return ref;
  const out = await repo.runRaw(
    ['rev-parse', '--verify', '--quiet', '--symbolic-full-name', '--end-of-options', ref],
    {
      signal,
    },
  );
  const name = out.stdout.trim();
  if (out.code !== 0 || !name.startsWith('refs/') || /[\s\0]/.test(name)) {
    throw new UserError(`"${shown(ref)}" is not a branch or ref with a reflog; give HEAD or a branch name.`);
  }
  return name;
}
