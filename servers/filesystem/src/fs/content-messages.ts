/**
 * The messages between the server and a content search worker, and what they carry. Types only:
 * the worker script, which may import nothing but Node built-ins, loses this import when compiled.
 */

/** Starts a search: a worker serves one at a time, and may serve several in turn (kept warm). */
export interface SearchStart {
  search: WorkerConfig;
}

/** What one search gives a worker (in a `SearchStart`). */
export interface WorkerConfig {
  /** Regex source; for a literal query, the escaped literal. */
  source: string;
  /** '' or 'i'. */
  flags: string;
  /** A case-sensitive literal: found with `indexOf`, the fastest path. */
  literal?: string;
  /** The query is a literal (with or without case): a file it is not in is skipped before splitting lines. */
  plain: boolean;
  contextLines: number;
  /** Files larger than this are skipped. */
  maxFileBytes: number;
  /** Longer lines are shown as a window around the match. */
  maxLineChars: number;
  /** Real path of the search root: an opened file whose real path is elsewhere is refused. */
  root: string;
  /** Hits one file may report (a batch's files share it). */
  hitsPerFile: number;
  /**
   * Two Int32 slots shared with the server: the id of the file last started, and of the file last
   * finished (both -1 before the first).
   */
  progress?: SharedArrayBuffer;
}

/** What reading and matching one file needs. */
export type FileConfig = Omit<WorkerConfig, 'hitsPerFile' | 'progress'>;

/** A run of files of one directory: `names[i]` has id `first + i`. */
export interface Batch {
  first: number;
  /** Real path of the directory, as the walk listed it. */
  dir: string;
  names: string[];
  /** Hits of `names[0]` already reported (a resumed file); the others start at 0. */
  skip: number;
}

/** Posted after the last file of a message: every id up to `done` is finished. */
export interface BatchDone {
  done: number;
}

/** The answer for one file, posted in the order the files came. */
export interface FileResult {
  id: number;
  hits: LineHit[];
  skipped?: SkipReason;
}

/** A matching line, 1-based, with its context. */
export interface LineHit {
  line: number;
  text: string;
  before: string[];
  after: string[];
}

/** Why a file was not searched: a NUL in its head, over the size cap, or not a readable regular file. */
export type SkipReason = 'binary' | 'large' | 'unreadable';
