import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import {
  type ContentHit,
  type ContentStats,
  compileQuery,
  contentSource,
  contentStats,
  isContentPosition,
  MAX_CONTENT_FILE_BYTES,
} from '../fs/content-search.js';
import { escapeLine, escapeName, formatSize } from '../fs/display.js';
import { compileExcludes, compileGlob } from '../fs/glob.js';
import { type Hidden, listingFilter, listingNotes } from '../fs/listing.js';
import { boundedPage, cursorList, pageBudget } from '../fs/paging.js';
import { walkStats } from '../fs/walk.js';

/** Time budget of one search_content call when the caller gives none. */
export const DEFAULT_TIMEOUT_MS = 5000;
/** Longest time budget a caller may ask for: a call should not hold a worker for minutes. */
export const MAX_TIMEOUT_MS = 30_000;

const Hit = z.object({
  file: z.string().describe('The file, under path as given (absolute when path is absolute)'),
  line: z.number(),
  text: z.string(),
  before: z.array(z.string()),
  after: z.array(z.string()),
});

/** One hit as text: `file:line: text`, or with context a block of numbered lines under `file:line`. */
function render(hit: ContentHit): string {
  const head = `${escapeName(hit.file)}:${hit.line}`;
  if (hit.before.length === 0 && hit.after.length === 0) return `${head}: ${escapeLine(hit.text)}`;
  const width = String(hit.line + hit.after.length).length;
  const at = (n: number, mark: string, text: string) =>
    `  ${String(n).padStart(width)}${mark} ${escapeLine(text)}`;
  return [
    head,
    ...hit.before.map((text, i) => at(hit.line - hit.before.length + i, '-', text)),
    at(hit.line, ':', hit.text),
    ...hit.after.map((text, i) => at(hit.line + 1 + i, '-', text)),
  ].join('\n');
}

function summary(stats: ContentStats, hits: number): string {
  const skipped = [
    stats.skippedBinary > 0 ? `${stats.skippedBinary} binary` : '',
    stats.skippedLarge > 0 ? `${stats.skippedLarge} over ${formatSize(MAX_CONTENT_FILE_BYTES)}` : '',
    stats.skippedUnreadable > 0 ? `${stats.skippedUnreadable} unreadable` : '',
  ].filter(Boolean);
  const files = `${stats.filesSearched} ${stats.filesSearched === 1 ? 'file' : 'files'} searched`;
  return `${hits} ${hits === 1 ? 'hit' : 'hits'} shown; ${files}${skipped.length > 0 ? `; skipped: ${skipped.join(', ')} files` : ''}.`;
}

/**
 * Searches file contents for a text or a JavaScript regex, with context lines, in a worker thread
 * that is terminated when the time budget runs out or the call is cancelled: a regex that
 * backtracks forever costs one budget, never the server. Binary files (a NUL in the first 8 KiB),
 * files over 2 MiB, symbolic links and special files are not read.
 */
export const searchContent = defineTool({
  name: 'search_content',
  title: 'Search file contents',
  description:
    'Finds the lines of files under a path that contain a text (or match a JavaScript regex with regex: true), with optional context lines. Case-insensitive unless caseSensitive is true. Skips binary files, files over 2 MiB and symbolic links. Stops at timeoutMs (default 5000) and returns what it found so far. Results come a page at a time: pass the returned cursor to continue.',
  input: z.object({
    path: z
      .string()
      .describe('The directory to search: absolute, or relative to the first allowed directory'),
    query: z.string().min(1).max(1000).describe('The text to find, or a regex when regex is true'),
    regex: z.boolean().optional().describe('Treat query as a JavaScript regular expression (default false)'),
    caseSensitive: z.boolean().optional().describe('Match case exactly (default false)'),
    contextLines: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe('Lines to show before and after each hit'),
    include: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe('Glob of files to search, e.g. "*.ts" or "src/**"'),
    excludePatterns: z.array(z.string().max(1000)).max(100).optional().describe('Globs of entries to skip'),
    respectGitignore: z.boolean().optional().describe('Skip what .gitignore files ignore, and .git'),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe('Time budget (default 5000)'),
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({
    hits: z.array(Hit),
    filesSearched: z.number(),
    skipped: z.object({ binary: z.number(), tooLarge: z.number(), unreadable: z.number() }),
    timedOut: z.boolean(),
    nextCursor: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // A search of a large tree can take a while: a 2026 client with the tasks extension polls instead.
  task: 'optional',
  async run(args, call) {
    const dir = await resolveArg(call, args.path);
    const { app } = call;
    const query = compileQuery(args.query, args.regex ?? false, args.caseSensitive ?? false);
    const timeoutMs = args.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const hidden: Hidden = { secrets: 0 };
    const walked = walkStats();
    const stats = contentStats();
    const exclude = listingFilter(
      dir.real,
      compileExcludes(args.excludePatterns),
      !call.context.allowSensitive,
      hidden,
    );
    const source = contentSource({
      root: dir.real,
      // Files are named under the path as the caller gave it, never the real path behind a link.
      base: args.path,
      query,
      contextLines: args.contextLines ?? 0,
      ...(args.include ? { include: compileGlob(args.include) } : {}),
      ...(exclude ? { exclude } : {}),
      ...(args.respectGitignore ? { gitignore: { boundary: dir.root.path } } : {}),
      budgetMs: timeoutMs,
      hitsPerFile: app.resultPageSize + 1,
      stats,
      walkStats: walked,
      display: dir.display,
      // Called once per file: without a progress token, not even the message is built; on a slow
      // mount each file still tells the stall guard the search is alive.
      ...(call.progress.enabled
        ? {
            onFile: (s: ContentStats) => {
              const done = s.filesSearched + s.skippedBinary + s.skippedLarge + s.skippedUnreadable;
              call.progress.report(done, { message: `${done} files searched` });
            },
          }
        : call.context.stall
          ? { onFile: () => call.context.stall?.alive() }
          : {}),
    });
    const { regex, caseSensitive, contextLines, include, excludePatterns, respectGitignore } = args;
    const shape = [
      dir.real,
      args.query,
      regex,
      caseSensitive,
      contextLines,
      include,
      excludePatterns,
      respectGitignore,
    ];
    const list = cursorList('search_content', shape);
    const page = await boundedPage(source, {
      codec: app.cursors,
      list,
      cursor: args.cursor,
      pageSize: app.resultPageSize,
      signal: call.signal,
      isPosition: isContentPosition,
      budgetBytes: pageBudget(app.outputLimitBytes),
      render,
    });
    const resume = stats.timedOut?.resume;
    const nextCursor = page.nextCursor ?? (resume ? app.cursors.encode(list, resume) : undefined);
    const lines =
      page.texts.length > 0 ? [...page.texts, ''] : [`No matches for "${escapeName(args.query)}".`];
    lines.push(summary(stats, page.items.length), ...listingNotes(walked, hidden));
    if (stats.timedOut) lines.push(timeoutNote(timeoutMs, stats.timedOut.file, resume !== undefined));
    if (nextCursor) lines.push(`More may follow: call search_content again with cursor "${nextCursor}".`);
    call.log.info(
      `search_content: ${page.items.length} hits${stats.timedOut ? ', stopped by the time budget' : ''}`,
    );
    return {
      text: lines.join('\n'),
      structured: {
        hits: page.items,
        filesSearched: stats.filesSearched,
        skipped: {
          binary: stats.skippedBinary,
          tooLarge: stats.skippedLarge,
          unreadable: stats.skippedUnreadable,
        },
        timedOut: stats.timedOut !== undefined,
        ...(nextCursor ? { nextCursor } : {}),
      },
    };
  },
});

function timeoutNote(timeoutMs: number, file: string | undefined, resumable: boolean): string {
  const where = file ? ` while searching "${escapeName(file)}", which was not finished` : '';
  const next = resumable
    ? ` The cursor below goes on after ${file ? 'that file' : 'the files searched'}.`
    : '';
  return `Stopped at the time budget of ${timeoutMs} ms${where}; the hits above are what was found until then. A regex with nested repetition such as (a+)+ can take that long on one line: simplify it, narrow include, or raise timeoutMs (up to ${MAX_TIMEOUT_MS}).${next}`;
}
