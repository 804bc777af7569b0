import { sep } from 'node:path';
import { errorMessage, UserError } from '@mcpkit/core/errors';
import type { JsonValue, PageSource } from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import type { FileResult, LineHit, WorkerConfig } from './content-messages.js';
import { Scanner } from './content-scanner.js';
import { beneath, escapeName } from './display.js';
import type { EntryMatcher } from './glob.js';
import type { Positioned } from './paging.js';
import {
  type ExcludeTest,
  isWalkPosition,
  type WalkEntry,
  type WalkPosition,
  type WalkStats,
  walk,
} from './walk.js';

/** Files larger than this are not searched (and are counted as skipped). */
export const MAX_CONTENT_FILE_BYTES = 2 * 1024 * 1024;

/** Longest line shown; a longer one is shown as a window around the match. */
export const MAX_LINE_CHARS = 300;

/**
 * Files the walk may run ahead of the first one not yet reported: several messages, so the
 * workers always have the next ones queued while the walk goes on.
 */
const LOOKAHEAD = 2048;

/** Reported files dropped from the front of the queue at a time. */
const COMPACT_AT = 512;

/**
 * A matching line of a file, with context lines. `file` is the file's path under the searched
 * directory as the caller named it (see `ContentSearchOptions.base`), never a real path behind a link.
 */
export interface ContentHit extends LineHit {
  file: string;
}

/**
 * Where a content search resumes: at the file walked to `w`, after its first `h` hits; or, with
 * `h` = -1, after that file altogether.
 */
export interface ContentPosition {
  [key: string]: JsonValue;
  w: WalkPosition;
  h: number;
}

/** Checks a decoded cursor position. */
export function isContentPosition(value: JsonValue): value is ContentPosition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { w, h } = value;
  return isWalkPosition(w) && typeof h === 'number' && Number.isSafeInteger(h) && h >= -1;
}

/** What a search went through, for the summary line and progress. */
export interface ContentStats {
  filesSearched: number;
  skippedBinary: number;
  skippedLarge: number;
  skippedUnreadable: number;
  /** Set when the time budget ran out: the file being searched then, and where to go on. */
  timedOut?: { file?: string; resume?: ContentPosition };
}

/** Fresh counters. */
export function contentStats(): ContentStats {
  return { filesSearched: 0, skippedBinary: 0, skippedLarge: 0, skippedUnreadable: 0 };
}

/** The pattern as the worker takes it. */
export type CompiledQuery = Pick<WorkerConfig, 'source' | 'flags' | 'literal' | 'plain'>;

/**
 * Checks and prepares a query on the server's thread. Compiling a regex is safe (only running it
 * can take forever), so a malformed one fails here with a clear sentence.
 */
export function compileQuery(query: string, regex: boolean, caseSensitive: boolean): CompiledQuery {
  const flags = caseSensitive ? '' : 'i';
  if (!regex) {
    const source = query.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return caseSensitive ? { source, flags, literal: query, plain: true } : { source, flags, plain: true };
  }
  try {
    new RegExp(query, flags);
  } catch (error) {
    const why = errorMessage(error);
    throw new UserError(
      `The regex is not valid JavaScript (${escapeName(why)}); fix it, or pass regex: false to search for the text as written.`,
    );
  }
  return { source: query, flags, plain: false };
}

/** One content search: where, what, which files, and its time budget. */
export interface ContentSearchOptions {
  /** Real path of the directory searched. */
  root: string;
  /**
   * The directory as the caller named it (default: `root`): files are named below it, so a search
   * of a link to a directory, or of a root configured through one, never answers with the real path
   * behind it.
   */
  base?: string;
  query: CompiledQuery;
  contextLines: number;
  /** Files whose path from the root does not match are not read. */
  include?: EntryMatcher;
  /** Entries left out of the walk (excludes, secrets). */
  exclude?: ExcludeTest;
  gitignore?: { boundary: string };
  /** Wall-clock budget of one call, in ms; when it runs out the worker is terminated. */
  budgetMs: number;
  /** Hits one file may contribute to a page (the page size plus one is enough). */
  hitsPerFile: number;
  maxFileBytes?: number;
  /** Counters, updated as files are searched; `onFile` is called after each. */
  stats: ContentStats;
  walkStats?: WalkStats;
  onFile?: (stats: ContentStats) => void;
  display?: string;
  /** Worker threads that search files side by side (default: `CONTENT_WORKERS`). */
  workers?: number;
}

/** A file sent to the workers, waiting for its outcome. */
interface Pending {
  entry: WalkEntry;
  skip: number;
  id: number;
}

const samePosition = (a: WalkPosition, b: WalkPosition): boolean =>
  a.length === b.length && a.every((key, i) => key === b[i]);

/** The real directory a walked file sits in (the walk joins it and the name with one separator). */
function directoryOf(entry: WalkEntry): string {
  const dir = entry.path.slice(0, entry.path.length - entry.name.length);
  return dir.length > 1 && dir.endsWith(sep) ? dir.slice(0, -1) : dir;
}

/**
 * The hits of a content search as a resumable source: the walk runs here, regular files go to the
 * worker in batches, and hits come back in walk order. On cancellation it throws `CancelledError`;
 * when the time budget runs out it yields what the worker had finished, then ends quietly and
 * records in `stats.timedOut` the file it was in (if any) and where to go on, so the caller can
 * return what was found and say how to continue.
 */
export function contentSource(
  options: ContentSearchOptions,
): PageSource<Positioned<ContentHit, ContentPosition>, ContentPosition> {
  const { root, stats } = options;
  const base = options.base ?? root;
  const config: WorkerConfig = {
    ...options.query,
    contextLines: options.contextLines,
    maxFileBytes: options.maxFileBytes ?? MAX_CONTENT_FILE_BYTES,
    maxLineChars: MAX_LINE_CHARS,
    root,
    hitsPerFile: options.hitsPerFile,
  };
  return async function* (from, signal) {
    const deadline = AbortSignal.timeout(options.budgetMs);
    const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const scanner = new Scanner(config, options.workers);
    const onCancel = () => scanner.cancel();
    const onDeadline = () => scanner.expire();
    signal?.addEventListener('abort', onCancel, { once: true });
    deadline.addEventListener('abort', onDeadline, { once: true });
    const walker = walk(root, {
      ...(from ? { from: from.w, inclusive: from.h >= 0 } : {}),
      signal: stop,
      ...(options.exclude ? { exclude: options.exclude } : {}),
      ...(options.gitignore ? { gitignore: options.gitignore } : {}),
      ...(options.walkStats ? { stats: options.walkStats } : {}),
      ...(options.display ? { display: options.display } : {}),
      // Only the files to search are built and handed over; directories are still entered.
      match: (relative, name, type) =>
        type === 'file' && (!options.include || options.include(relative, name, false)),
    });
    let resumeIn = from && from.h >= 0 ? from : undefined;
    // Where to go on if time runs out with every walked file searched: after the last file walked
    // (its position is built only then: most entries never need one).
    let lastWalked: WalkEntry | undefined;
    let walking = true;
    let cut = false;
    // Files sent, in walk order; those before `head` are reported.
    let pending: Pending[] = [];
    let head = 0;
    try {
      for (;;) {
        // Report every file whose outcome is in, in walk order: no promise per file, the workers
        // answer by the message.
        for (let file = pending[head]; file; file = pending[head]) {
          const outcome = scanner.outcome(file.id);
          if (!outcome) break;
          if ('stopped' in outcome) {
            const at = file.entry.position;
            stats.timedOut =
              outcome.stopped === 'running'
                ? { file: beneath(base, file.entry.relative), resume: { w: at, h: -1 } }
                : { resume: { w: at, h: file.skip } };
            return;
          }
          head++;
          count(stats, outcome);
          options.onFile?.(stats);
          if (outcome.hits.length === 0) continue;
          const name = beneath(base, file.entry.relative);
          for (let i = 0; i < outcome.hits.length; i++) {
            const position: ContentPosition = { w: file.entry.position, h: file.skip + i + 1 };
            yield { item: { value: { file: name, ...outcome.hits[i]! }, position }, position };
          }
        }
        // Reported files are let go of (an entry holds its directory's listing): rarely is every
        // file sent reported at once, so the front is cut off every so often.
        if (head >= COMPACT_AT || (head > 0 && head === pending.length)) {
          pending = pending.slice(head);
          head = 0;
        }
        // Walk on while the workers are not too far behind.
        if (walking && pending.length - head < LOOKAHEAD) {
          let next: IteratorResult<WalkEntry>;
          try {
            next = await walker.next();
          } catch (error) {
            if (signal?.aborted || !deadline.aborted) throw error;
            // The time budget stopped the walk: finish with the files already sent.
            walking = false;
            cut = true;
            continue;
          }
          if (next.done) {
            walking = false;
            continue;
          }
          const entry = next.value;
          lastWalked = entry;
          let skip = 0;
          if (resumeIn) {
            if (samePosition(entry.position, resumeIn.w)) skip = resumeIn.h;
            resumeIn = undefined;
          }
          pending.push({ entry, skip, id: scanner.add(directoryOf(entry), entry.name, skip) });
          continue;
        }
        if (head === pending.length) break;
        // Every file sent: the outcome awaited never waits on a message still being built.
        scanner.flush();
        await scanner.wait();
      }
      if (cut) {
        const resume = lastWalked ? { w: lastWalked.position, h: -1 } : from;
        stats.timedOut = resume ? { resume } : {};
      }
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onCancel);
      deadline.removeEventListener('abort', onDeadline);
      scanner.close();
      await walker.return(undefined);
    }
  };
}

function count(stats: ContentStats, result: FileResult): void {
  if (result.skipped === 'binary') stats.skippedBinary++;
  else if (result.skipped === 'large') stats.skippedLarge++;
  else if (result.skipped === 'unreadable') stats.skippedUnreadable++;
  else stats.filesSearched++;
}
