/**
 * The thread that reads files and runs the pattern for search_content. A JavaScript regex can take
 * exponential time (`(a+)+$` on "aaaa…!"), and V8 cannot interrupt it from the same thread, so the
 * matching runs here, where the server can `terminate()` it on a time budget or a cancellation
 * without ever blocking its own event loop.
 *
 * Files come in batches, one directory's run at a time, and only files with something to say (hits,
 * or a reason they were skipped) are posted back, plus one `done` per batch: most files of a search
 * have no hit, and a message per file cost more than reading it. What the worker has started and
 * finished is kept in shared memory, so a server that terminates it at the time budget still knows
 * exactly which files were searched (every result posted before termination is delivered first).
 *
 * This file imports nothing but Node built-ins: it runs as compiled JavaScript beside
 * content-scanner.js (see `contentWorkerUrl` there).
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is started with. */
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

/** Slots of {@link WorkerConfig.progress}. */
export const STARTED = 0;
export const FINISHED = 1;

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

/** One file to search: report hits number `skip` onwards, at most `limit` of them. */
export interface FileJob {
  id: number;
  path: string;
  skip: number;
  limit: number;
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

/** The answer for one job, posted in the order the jobs came. */
export interface FileResult {
  id: number;
  hits: LineHit[];
  skipped?: SkipReason;
}

/** Bytes looked at for a NUL to call a file binary, as git and grep do. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Returns where `line` matches, or -1. */
export type LineTest = (line: string) => number;

/** Builds the line test once per worker. */
export function lineTest(config: Pick<WorkerConfig, 'source' | 'flags' | 'literal'>): LineTest {
  const { literal } = config;
  if (literal !== undefined) return (line) => line.indexOf(literal);
  // No 'g' flag: exec always starts at 0 and keeps no state between lines.
  const regex = new RegExp(config.source, config.flags);
  return (line) => regex.exec(line)?.index ?? -1;
}

/** A line cut to `max` characters around `at`, marked with … where cut. */
export function clip(line: string, at: number, max: number): string {
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(at - Math.floor(max / 4), line.length - max));
  const head = start > 0 ? '…' : '';
  const tail = start + max < line.length ? '…' : '';
  return head + line.slice(start, start + max) + tail;
}

/** Finds the hits in a file's text (already known to be text and small enough). */
export function searchText(
  text: string,
  test: LineTest,
  config: Pick<WorkerConfig, 'contextLines' | 'maxLineChars' | 'plain'>,
  skip: number,
  limit: number,
): LineHit[] {
  // A literal cannot span lines, so one scan of the whole text rules most files out cheaply.
  if (config.plain && test(text) < 0) return [];
  const lines = text.split('\n');
  const hits: LineHit[] = [];
  const { contextLines: context, maxLineChars: max } = config;
  const lineAt = (i: number): string => {
    const line = lines[i]!;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  let seen = 0;
  for (let i = 0; i < lines.length && hits.length < limit; i++) {
    const line = lineAt(i);
    const at = test(line);
    if (at < 0 || seen++ < skip) continue;
    const before: string[] = [];
    for (let j = Math.max(0, i - context); j < i; j++) before.push(clip(lineAt(j), 0, max));
    const after: string[] = [];
    for (let j = i + 1; j <= Math.min(lines.length - 1, i + context); j++)
      after.push(clip(lineAt(j), 0, max));
    hits.push({ line: i + 1, text: clip(line, at, max), before, after });
  }
  return hits;
}

/** True when `path` is `root` or below it. */
function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * True when the opened file is the very file the walk listed at `path` under `root`. A directory on
 * the way swapped for a link after the walk fails this, whether the link leads outside the roots or
 * to a directory inside them that the walk left out (`.ssh`, an excluded folder). Fails closed.
 */
function openedAt(fd: number, path: string, root: string): boolean {
  if (!HAS_PROC_FD) return true;
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    return real === path && real !== root && inside(real, root);
  } catch {
    return false;
  }
}

const unreadable = (id: number): FileResult => ({ id, hits: [], skipped: 'unreadable' });

// One read buffer per thread, a byte over the largest cap: most files are small, and allocating
// one per file showed up in profiles.
let shared: Buffer | undefined;
function readBuffer(size: number): Buffer {
  if (!shared || shared.length < size) shared = Buffer.allocUnsafe(size);
  return shared;
}

/** Searches the file open at `fd` (already checked to be the one meant, if it can be). */
function searchOpened(
  fd: number,
  id: number,
  check: () => boolean,
  test: LineTest,
  config: FileConfig,
  skip: number,
  limit: number,
): FileResult {
  const info = fstatSync(fd);
  if (!info.isFile() || !check()) return unreadable(id);
  if (info.size > config.maxFileBytes) return { id, hits: [], skipped: 'large' };
  // One byte more than the cap: a file that grew since fstat is caught, not read without end.
  const buffer = readBuffer(config.maxFileBytes + 1);
  const want = Math.min(info.size, config.maxFileBytes) + 1;
  let length = 0;
  while (length < want) {
    const n = readSync(fd, buffer, length, want - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > config.maxFileBytes) return { id, hits: [], skipped: 'large' };
  if (buffer.subarray(0, Math.min(length, BINARY_SNIFF_BYTES)).includes(0))
    return { id, hits: [], skipped: 'binary' };
  const text = buffer.toString('utf8', 0, length);
  return { id, hits: searchText(text, test, config, skip, limit) };
}

/** Reads and searches one file, refusing links, special files, binaries and files over the cap. */
export function searchFile(job: FileJob, test: LineTest, config: FileConfig): FileResult {
  let fd: number;
  try {
    fd = openSync(job.path, OPEN_FLAGS);
  } catch {
    return unreadable(job.id);
  }
  try {
    const check = () => openedAt(fd, job.path, config.root);
    return searchOpened(fd, job.id, check, test, config, job.skip, job.limit);
  } catch {
    return unreadable(job.id);
  } finally {
    closeSync(fd);
  }
}

/**
 * A directory held open while its files are read. On Linux each file is opened through the held
 * descriptor (`/proc/self/fd/N/name`, the same as openat), so one check that the descriptor is the
 * directory the walk listed covers every file in it: a directory on the way swapped for a link
 * after the walk is refused, as a per-file check would, at one readlink per directory instead of
 * one per file. `intact` checks again before anything found is reported, so a directory moved out
 * of the root while it was read reports nothing from it.
 */
interface HeldDirectory {
  /** What a file name is appended to, to open it. */
  prefix: string;
  intact(): boolean;
  close(): void;
}

function holdDirectory(dir: string, root: string): HeldDirectory | undefined {
  if (!HAS_PROC_FD) return { prefix: dir.endsWith(sep) ? dir : dir + sep, intact: () => true, close() {} };
  let fd: number;
  try {
    fd = openSync(dir, DIR_FLAGS);
  } catch {
    return undefined;
  }
  const link = `/proc/self/fd/${fd}`;
  const intact = (): boolean => {
    try {
      const real = readlinkSync(link);
      return real === dir && inside(real, root);
    } catch {
      return false;
    }
  };
  if (!intact()) {
    closeSync(fd);
    return undefined;
  }
  return { prefix: `${link}/`, intact, close: () => closeSync(fd) };
}

/** A name the walk could have listed: one path component, never `.`, `..` or empty. */
const isEntryName = (name: string): boolean =>
  name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes(sep);

/**
 * Searches a batch in order, posting each file's result that has hits or was skipped (the others
 * need no message), and records progress before and after each file in `progress`.
 */
export function searchBatch(
  batch: Batch,
  test: LineTest,
  config: WorkerConfig,
  post: (result: FileResult) => void,
  progress?: Int32Array,
): void {
  const held = holdDirectory(batch.dir, config.root);
  try {
    for (const [i, name] of batch.names.entries()) {
      const id = batch.first + i;
      if (progress) Atomics.store(progress, STARTED, id);
      let result = unreadable(id);
      if (held && isEntryName(name)) {
        let fd: number | undefined;
        try {
          fd = openSync(held.prefix + name, OPEN_FLAGS);
          result = searchOpened(
            fd,
            id,
            () => true,
            test,
            config,
            i === 0 ? batch.skip : 0,
            config.hitsPerFile,
          );
        } catch {
          // unreadable: vanished, a link, no permission
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
      }
      if (result.hits.length > 0 || result.skipped) post(held?.intact() ? result : unreadable(id));
      if (progress) Atomics.store(progress, FINISHED, id);
    }
  } finally {
    held?.close();
  }
}

// Started as a worker: answer each message (a list of batches) in order, with one `done` after it:
// a message costs tens of microseconds, more than searching a small file. Imported (tests), do nothing.
const port = parentPort;
if (port) {
  const config = workerData as WorkerConfig;
  const test = lineTest(config);
  const progress = config.progress ? new Int32Array(config.progress) : undefined;
  const post = (result: FileResult) => port.postMessage(result);
  port.on('message', (batches: Batch[]) => {
    for (const batch of batches) searchBatch(batch, test, config, post, progress);
    const last = batches[batches.length - 1];
    if (last) port.postMessage({ done: last.first + last.names.length - 1 } satisfies BatchDone);
  });
}
