/**
 * The official `git_log` (max_count, start_timestamp, end_timestamp), with each commit read as one
 * record (see `parse-log.ts`: the official one misaligned entries under date filters), a starting
 * ref, a path, and paging (see `log-pages.ts`): the cursor pins the commit the next page starts
 * from (the commit after the page, or an earlier one and a count to skip), so the pages of a branch
 * that moves meanwhile still fit together, and a page reads no more history than it shows.
 */
import { UserError } from '@mcpkit/core/errors';
import { encodeBoundCursor } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool, repoPathArg, repositoryOf } from '../context.js';
import { checkDate } from '../git/dates.js';
import { readLogPage } from '../git/log-pages.js';
import { logRecords, outputProgress } from '../git/output-progress.js';
import { CommitSchema, LOG_RECORD_FIELDS } from '../git/parse-log.js';
import { decodeCursor, keyOf } from '../git/read-cursor.js';
import { headCommit, pathspecs, resolveCommit } from '../git/values.js';

type LogPosition = { h: string; s: number };

/** The commit history, newest first, a page at a time. */
export const gitLog = defineTool({
  name: 'git_log',
  title: 'Git log',
  description:
    'Shows the commit history, newest first: hash, author, date and message of each commit. Filter by commit ' +
    'date (ISO dates, "@<unix seconds>" or forms like "2 weeks ago"), start from a branch or commit, or follow ' +
    'one path. Pass the returned cursor to read the next page.',
  input: z.object({
    repo_path: repoPathArg,
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
      // Signed by the codec, so made here; checked all the same before git sees it.
      if (!/^[0-9a-f]{40,64}$/.test(position.h) || !Number.isSafeInteger(position.s) || position.s < 0) {
        throw new UserError('This git_log cursor is not valid; leave cursor out to start over.');
      }
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
    const reading = outputProgress(call.progress, logRecords(LOG_RECORD_FIELDS, ['commit', 'commits']), size);
    reading.start('Reading the history');
    const filters = [...(since ? [`--since=${since}`] : []), ...(until ? [`--until=${until}`] : [])];
    const { commits, text, next } = await readLogPage({
      repo,
      start: { h: start, s: skip },
      size,
      budget: call.app.outputLimitBytes - 1024,
      filters,
      specs,
      signal: call.signal,
      onOutput: reading.onOutput,
    });
    const nextCursor = next
      ? encodeBoundCursor<LogPosition>(call.app.cursors, 'git_log', key, { h: next.h, s: next.s })
      : undefined;
    reading.finish();
    const lines = [commits.length > 0 ? `Commit history:\n\n${text}` : 'No commits match.'];
    if (nextCursor) {
      lines.push(`\n[More commits follow: call git_log with the same arguments and cursor "${nextCursor}".]`);
    }
    return { text: lines.join('\n'), structured: { commits, ...(nextCursor ? { nextCursor } : {}) } };
  },
});
