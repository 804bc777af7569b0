/**
 * The official `git_log` (max_count, start_timestamp, end_timestamp), with each commit read as one
 * record (see `parse-log.ts`: the official one misaligned entries under date filters), a starting
 * ref, a path, and paging: the cursor pins the commit the log started from and counts the commits
 * already shown, so the pages of a branch that moves meanwhile still fit together.
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import * as z from 'zod';
import { defineTool, repositoryOf } from '../context.js';
import { checkDate } from '../git/dates.js';
import { READ_TIMEOUT_MS } from '../git/diff-pages.js';
import { GitFailed, gitError } from '../git/errors.js';
import { type Commit, CommitSchema, commitText, LOG_FORMAT, parseLog } from '../git/parse-log.js';
import { decodeCursor, keyOf } from '../git/read-cursor.js';
import { headCommit, pathspecs, resolveCommit } from '../git/values.js';

type LogPosition = { k: string; h: string; s: number };

/** Bytes a log may read from git for one page: far more than a page shows. */
const MAX_LOG_READ = 64 * 1024 * 1024;

/** The commit history, newest first, a page at a time. */
export const gitLog = defineTool({
  name: 'git_log',
  title: 'Git log',
  description:
    'Shows the commit history, newest first: hash, author, date and message of each commit. Filter by commit ' +
    'date (ISO dates, "@<unix seconds>" or forms like "2 weeks ago"), start from a branch or commit, or follow ' +
    'one path. Pass the returned cursor to read the next page.',
  input: z.object({
    repo_path: z.string().optional().describe('The repository; default: the one the server was started with'),
    max_count: z.number().int().min(1).max(10_000).default(10).describe('Commits per page'),
    start_timestamp: z.string().optional().describe('Only commits made at or after this date'),
    end_timestamp: z.string().optional().describe('Only commits made at or before this date'),
    ref: z.string().optional().describe('The branch, tag or commit to start from; default HEAD'),
    path: z.string().optional().describe('Only commits that touch this file or folder'),
    cursor: z
      .string()
      .optional()
      .describe('The nextCursor of the previous page (with the same other arguments)'),
  }),
  output: z.object({ commits: z.array(CommitSchema), nextCursor: z.string().optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run(args, call) {
    const repo = await repositoryOf(call, args.repo_path);
    const since = args.start_timestamp
      ? checkDate('start_timestamp', args.start_timestamp, 'start')
      : undefined;
    const until = args.end_timestamp ? checkDate('end_timestamp', args.end_timestamp, 'end') : undefined;
    const specs = args.path ? await pathspecs(repo, await call.roots(), [args.path]) : [];
    const key = keyOf('git_log', repo.top, args.ref ?? null, specs, since ?? null, until ?? null);
    let start: string | undefined;
    let skip = 0;
    if (args.cursor) {
      const position = decodeCursor<LogPosition>(call.app.cursors, 'git_log', args.cursor, key, {
        h: 'string',
        s: 'number',
      });
      start = position.h;
      skip = position.s;
    } else {
      start = args.ref
        ? await resolveCommit(repo, 'ref', args.ref, call.signal)
        : await headCommit(repo, call.signal);
    }
    if (start === undefined)
      return { text: 'The repository has no commits yet.', structured: { commits: [] } };

    const size = Math.min(args.max_count, call.app.resultPageSize);
    call.progress.report(0, { total: size, message: 'Reading the history' });
    const argv = ['log', '-z', '--no-color', '--encoding=UTF-8', LOG_FORMAT, `--max-count=${size + 1}`];
    if (skip > 0) argv.push(`--skip=${skip}`);
    if (since) argv.push(`--since=${since}`);
    if (until) argv.push(`--until=${until}`);
    argv.push('--end-of-options', start, '--', ...specs);
    const out = await repo.runRaw(argv, {
      signal: call.signal,
      maxOutputBytes: MAX_LOG_READ,
      timeoutMs: READ_TIMEOUT_MS,
    });
    if (!out.truncated && out.code !== 0)
      throw gitError('git log', new GitFailed('log', out), [[repo.top, '.']]);
    const read = parseLog(out.stdout);
    if (read.length === 0 && out.truncated) {
      throw new UserError('The next commit is too large to read; narrow the log with path or the dates.');
    }
    const { commits, text } = fit(read.slice(0, size), call.app.outputLimitBytes - 1024);
    const more = commits.length < read.length || out.truncated;
    const nextCursor = more
      ? call.app.cursors.encode<LogPosition>('git_log', { k: key, h: start, s: skip + commits.length })
      : undefined;
    call.progress.report(commits.length, { total: commits.length });
    const lines = [commits.length > 0 ? `Commit history:\n\n${text}` : 'No commits match.'];
    if (nextCursor) {
      lines.push(`\n[More commits follow: call git_log with the same arguments and cursor "${nextCursor}".]`);
    }
    return { text: lines.join('\n'), structured: { commits, ...(nextCursor ? { nextCursor } : {}) } };
  },
});

/** The commits whose text fits in `budget` bytes (at least one), and that text. */
function fit(commits: Commit[], budget: number): { commits: Commit[]; text: string } {
  const parts: string[] = [];
  let used = 0;
  for (const commit of commits) {
    const part = commitText(commit);
    used += utf8ByteLength(part) + 2;
    if (used > budget && parts.length > 0) break;
    parts.push(part);
  }
  return { commits: commits.slice(0, parts.length), text: parts.join('\n\n') };
}
