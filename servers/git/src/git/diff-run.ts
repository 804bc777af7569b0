/**
 * What the diff tools (unstaged, staged, against a commit) and `git_show` share: their paging
 * arguments, and one page of the patch with, on the first page, the overview of the changed files,
 * as text and structured.
 * Every command here prints a diff, so each carries DIFF_SAFETY: no external diff, no textconv.
 */
import { utf8ByteLength } from '@mcpkit/core/limits';
import * as z from 'zod';
import type { GitCall } from '../context.js';
import { diffPage, MAX_DIFF_READ } from './diff-pages.js';
import { DIFF_SAFETY } from './hardening.js';
import { outputProgress, PATCH_FILES } from './output-progress.js';
import { COMMIT_FORMAT, type Commit, commitText, LOG_RECORD_FIELDS, parseLog } from './parse-log.js';
import { type FileStat, overviewText } from './parse-numstat.js';
import { keyOf } from './read-cursor.js';
import type { Repository } from './repository.js';
import { pathspecs } from './values.js';

/** The arguments every diff tool takes after its own. */
export const diffArgs = {
  context_lines: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(3)
    .describe('Lines of context around each change'),
  paths: z
    .array(z.string())
    .max(256)
    .optional()
    .describe('Only these files or folders, relative to the work tree'),
  max_bytes: z
    .number()
    .int()
    .min(1024)
    .optional()
    .describe('Bytes of diff per page; default: as much as one result may carry'),
  cursor: z
    .string()
    .optional()
    .describe('The nextCursor of the previous page, to continue (with the same other arguments)'),
};

const FileStatSchema = z.object({
  path: z.string(),
  from: z.string().optional(),
  added: z.number().nullable(),
  deleted: z.number().nullable(),
});

/** The structured result of a diff page: the overview (first page) and the cursor to the next. */
export const diffOutput = z.object({
  files: z.array(FileStatSchema).optional().describe('Changed files, on the first page only'),
  page: z.number(),
  nextCursor: z.string().optional(),
});

export type DiffArgs = {
  context_lines: number;
  paths?: string[] | undefined;
  max_bytes?: number | undefined;
  cursor?: string | undefined;
};

export interface DiffSpec {
  tool: string;
  /** First line of the text: "Unstaged changes". */
  title: string;
  /** The text when nothing changed. */
  empty: string;
  /** The subcommand and its own options: `['diff', '--cached']`. */
  command: readonly string[];
  /** Resolved commit SHAs, passed after `--end-of-options`. */
  revisions: readonly string[];
  /**
   * git_show: the commit, printed by the first page's run ahead of its patch, and shown (and
   * returned) before the overview. Later pages show the patch alone.
   */
  commit?: boolean;
}

/** Room kept for the title, notices and cursor around a page's diff. */
const RESERVE = 1024;

/**
 * Runs one page of a diff tool: one git run, whose output gives the overview too on the first page,
 * and git_show's commit.
 */
export async function runDiff(call: GitCall, repo: Repository, args: DiffArgs, spec: DiffSpec) {
  const specs = args.paths?.length ? await pathspecs(repo, await call.roots(), args.paths) : [];
  const limit = call.app.outputLimitBytes;
  let files: FileStat[] | undefined;
  let lead = '';
  let commit: { read?: Commit; header?: string } | undefined;
  const readCommit = (preamble: string | undefined) => {
    if (commit || preamble === undefined) return;
    const read = parseLog(preamble, Math.floor(limit / 4))[0];
    commit = read ? { read, header: commitText(read) } : {};
  };
  const reading = outputProgress(call.progress, PATCH_FILES);
  reading.start('Reading the diff');
  const page = await diffPage({
    repo,
    options: [...spec.command, ...DIFF_SAFETY, '--no-color', `--unified=${args.context_lines}`],
    tail: [...(spec.revisions.length > 0 ? ['--end-of-options', ...spec.revisions] : []), '--', ...specs],
    what: `git ${spec.command[0]}`,
    codec: call.app.cursors,
    list: spec.tool,
    key: keyOf(spec.tool, repo.top, spec.revisions, args.context_lines, specs),
    cursor: args.cursor,
    ...(spec.commit ? { preamble: { format: COMMIT_FORMAT, fields: LOG_RECORD_FIELDS } } : {}),
    pageBytes: (all, preamble) => {
      // The first page: room for the commit (git_show) and the overview comes off the page.
      if (all) {
        readCommit(preamble);
        const overview = all.length > 0 ? overviewText(all, Math.floor(limit / 4)) : undefined;
        files = overview?.shown ?? [];
        lead = [commit?.header, overview?.text].filter(Boolean).join('\n\n');
      }
      const room = limit - RESERVE - utf8ByteLength(lead);
      return Math.max(1024, Math.min(args.max_bytes ?? room, room));
    },
    signal: call.signal,
    runs: call.context.diffRuns,
    onOutput: reading.onOutput,
  });
  reading.finish();
  // A commit that changes nothing (for these paths) leaves no page to make room on.
  readCommit(page.preamble);
  const shownCommit = commit?.read ? { commit: commit.read } : {};
  const header = commit?.header;
  if (page.files && page.files.length === 0 && page.text === '') {
    const text = header ? `${spec.title}:\n${header}\n\n${spec.empty}` : spec.empty;
    return { text, structured: { files: [], page: 1 }, ...shownCommit };
  }
  const parts = [page.page === 1 ? `${spec.title}:` : `${spec.title}, page ${page.page}:`];
  if (lead) parts.push(lead, '');
  if (page.continues) parts.push(`[continuing ${page.continues}]`);
  parts.push(page.text.endsWith('\n') ? page.text.slice(0, -1) : page.text);
  if (page.nextCursor) {
    parts.push(
      `[Page ${page.page} ends here and more of the diff follows: call ${spec.tool} with the same arguments and cursor "${page.nextCursor}".]`,
    );
  } else if (page.beyondLimit) {
    parts.push(
      `[The diff of one file goes on past the ${MAX_DIFF_READ / 1024 / 1024} MiB this server reads at once: its rest and the files after it are not shown; name those files in paths to read them.]`,
    );
  }
  return {
    text: parts.join('\n'),
    structured: {
      ...(page.page === 1 ? { files: files ?? [] } : {}),
      page: page.page,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    },
    ...shownCommit,
  };
}
