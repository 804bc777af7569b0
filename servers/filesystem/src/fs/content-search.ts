import { Worker } from 'node:worker_threads';
import { errorMessage, UserError } from '@mcpkit/core/errors';
import type { JsonValue, PageSource } from '@mcpkit/core/pagination';
import { CancelledError } from '@mcpkit/core/progress';
import type { FileJob, FileResult, LineHit, WorkerConfig } from './content-worker.js';
import { escapeName } from './display.js';
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

/** Files handed to the worker ahead of the one awaited: keeps it busy while the walk goes on. */
const LOOKAHEAD = 16;

/** A matching line of a file, with context lines. `file` is an absolute real path. */
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

let workerUrl: URL | undefined;

/**
 * Where the worker script is, from where this code runs (never a folder above the package):
 * - run from src/ (vitest transforms TypeScript in its own module graph, but a worker thread is a
 *   plain Node thread and Node 20 cannot load a .ts file), the package's build output is used:
 *   `turbo run test` builds first, and the tests build that one file when it is missing;
 * - compiled, content-worker.js sits beside this module (dist/fs/);
 * - in the bundled bin (dist/bin.js) this code sits in dist/, and the worker stays the compiled
 *   file in dist/fs/ (it imports only Node built-ins, so it needs no bundle of its own).
 */
export function contentWorkerUrl(): URL {
  if (!workerUrl) {
    const here = import.meta.url;
    const relative = here.endsWith('/src/fs/content-search.ts')
      ? '../../dist/fs/content-worker.js'
      : here.endsWith('/fs/content-search.js')
        ? './content-worker.js'
        : './fs/content-worker.js';
    workerUrl = new URL(relative, here);
  }
  return workerUrl;
}

/** One worker for one search: jobs in, results out in the same order; `stop` ends it at once. */
class Scanner {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (r: FileResult) => void; reject: (e: Error) => void }>();
  #failure: Error | undefined;
  #next = 0;

  constructor(config: WorkerConfig) {
    // A heap cap: a worker must not take the server down with it.
    this.#worker = new Worker(contentWorkerUrl(), {
      workerData: config,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.#worker.on('message', (result: FileResult) => {
      this.#waiting.get(result.id)?.resolve(result);
      this.#waiting.delete(result.id);
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('The content search worker stopped.')));
  }

  scan(path: string, skip: number, limit: number): Promise<FileResult> {
    const id = this.#next++;
    const failure = this.#failure;
    const result = new Promise<FileResult>((resolve, reject) => {
      if (failure) reject(failure);
      else this.#waiting.set(id, { resolve, reject });
    });
    // A job abandoned by `stop` must not surface as an unhandled rejection.
    result.catch(() => {});
    if (!failure) this.#worker.postMessage([{ id, path, skip, limit } satisfies FileJob]);
    return result;
  }

  stop(): void {
    this.#fail(new Error('The content search was stopped.'));
    void this.#worker.terminate();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(this.#failure);
    this.#waiting.clear();
  }
}

/** One content search: where, what, which files, and its time budget. */
export interface ContentSearchOptions {
  /** Real path of the directory searched. */
  root: string;
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
}

interface Pending {
  entry: WalkEntry;
  skip: number;
  result: Promise<FileResult>;
}

const samePosition = (a: WalkPosition, b: WalkPosition): boolean =>
  a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * The hits of a content search as a resumable source: the walk runs here, each regular file goes
 * to the worker, and hits come back in walk order. On cancellation it throws `CancelledError`;
 * when the time budget runs out it ends quietly and records in `stats.timedOut` the file it was
 * in and the position after it, so the caller can return what was found and say how to go on.
 */
export function contentSource(
  options: ContentSearchOptions,
): PageSource<Positioned<ContentHit, ContentPosition>, ContentPosition> {
  const { root, stats } = options;
  const config: WorkerConfig = {
    ...options.query,
    contextLines: options.contextLines,
    maxFileBytes: options.maxFileBytes ?? MAX_CONTENT_FILE_BYTES,
    maxLineChars: MAX_LINE_CHARS,
    root,
  };
  return async function* (from, signal) {
    const deadline = AbortSignal.timeout(options.budgetMs);
    const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const scanner = new Scanner(config);
    const onStop = () => scanner.stop();
    stop.addEventListener('abort', onStop, { once: true });
    const walker = walk(root, {
      ...(from ? { from: from.w, inclusive: from.h >= 0 } : {}),
      signal: stop,
      ...(options.exclude ? { exclude: options.exclude } : {}),
      ...(options.gitignore ? { gitignore: options.gitignore } : {}),
      ...(options.walkStats ? { stats: options.walkStats } : {}),
      ...(options.display ? { display: options.display } : {}),
    });
    let resumeIn = from && from.h >= 0 ? from : undefined;
    // Where to go on if time runs out with no file in the worker: after the last entry walked.
    let resumeAfter: ContentPosition | undefined = from;
    let walking = true;
    const pending: Pending[] = [];
    try {
      for (;;) {
        while (walking && pending.length < LOOKAHEAD) {
          const next = await walker.next();
          if (next.done) {
            walking = false;
            break;
          }
          const entry = next.value;
          resumeAfter = { w: entry.position, h: -1 };
          if (
            entry.type !== 'file' ||
            (options.include && !options.include(entry.relative, entry.name, false))
          )
            continue;
          let skip = 0;
          if (resumeIn) {
            if (samePosition(entry.position, resumeIn.w)) skip = resumeIn.h;
            resumeIn = undefined;
          }
          pending.push({ entry, skip, result: scanner.scan(entry.path, skip, options.hitsPerFile) });
        }
        const head = pending[0];
        if (!head) return;
        const result = await head.result;
        pending.shift();
        count(stats, result);
        options.onFile?.(stats);
        for (const [i, hit] of result.hits.entries()) {
          const position: ContentPosition = { w: head.entry.position, h: head.skip + i + 1 };
          yield { item: { value: { file: head.entry.path, ...hit }, position }, position };
        }
      }
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      if (!deadline.aborted) throw error;
      const current = pending[0];
      stats.timedOut = current
        ? { file: current.entry.path, resume: { w: current.entry.position, h: -1 } }
        : resumeAfter
          ? { resume: resumeAfter }
          : {};
    } finally {
      stop.removeEventListener('abort', onStop);
      scanner.stop();
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
