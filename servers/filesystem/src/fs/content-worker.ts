/**
 * The thread that reads files and runs the pattern for search_content. A JavaScript regex can take
 * exponential time (`(a+)+$` on "aaaa…!"), and V8 cannot interrupt it from the same thread, so the
 * matching runs here, where the server can `terminate()` it on a time budget or a cancellation
 * without ever blocking its own event loop.
 *
 * Files come in batches, one directory's run at a time, and only files with something to say (hits,
 * or a reason they were skipped) are posted back, plus one `done` per message of batches: most
 * files of a search have no hit, and a message per file cost more than reading it. What the worker
 * has started and finished is kept in shared memory, so a server that terminates it at the time
 * budget still knows exactly which files were searched (every result posted before termination is
 * delivered first).
 *
 * This file imports nothing but Node built-ins (and types, gone once compiled): it runs as compiled
 * JavaScript beside the server's modules (see `contentWorkerUrl` in content-worker-pool.ts).
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { sep } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type {
  Batch,
  BatchDone,
  FileConfig,
  FileResult,
  LineHit,
  SearchStart,
  WorkerConfig,
} from './content-messages.js';

// What tests of the worker side name it by.
export type { Batch, FileResult } from './content-messages.js';

/** Slots of {@link WorkerConfig.progress}. */
export const STARTED = 0;
export const FINISHED = 1;

/** One file to search: report hits number `skip` onwards, at most `limit` of them. */
export interface FileJob {
  id: number;
  path: string;
  skip: number;
  limit: number;
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
  // The size fstat gave, in one read (another, only to meet the end, costs a system call per file);
  // a file that says it is empty may be a pseudo-file with bytes: read to one past the cap.
  const buffer = readBuffer(config.maxFileBytes + 1);
  const want = info.size > 0 ? info.size : config.maxFileBytes + 1;
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

const pass = (): boolean => true;

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
  const { names, first } = batch;
  try {
    // An index loop, no closure or placeholder result per file: this is the hottest loop.
    for (let i = 0; i < names.length; i++) {
      const id = first + i;
      const name = names[i]!;
      if (progress) Atomics.store(progress, STARTED, id);
      let result: FileResult | undefined;
      if (held && isEntryName(name)) {
        let fd: number | undefined;
        try {
          fd = openSync(held.prefix + name, OPEN_FLAGS);
          const skip = i === 0 ? batch.skip : 0;
          // The held directory was checked once for every file in it.
          result = searchOpened(fd, id, pass, test, config, skip, config.hitsPerFile);
        } catch {
          // unreadable: vanished, a link, no permission
        } finally {
          if (fd !== undefined) closeSync(fd);
        }
      }
      if (!result) post(unreadable(id));
      else if (result.hits.length > 0 || result.skipped) post(held?.intact() ? result : unreadable(id));
      if (progress) Atomics.store(progress, FINISHED, id);
    }
  } finally {
    held?.close();
  }
}

/** How much lower than the server's thread a worker runs (a nice value). */
const WORKER_NICENESS = 5;

/**
 * Lowers this thread's priority (Linux, where a thread has its own): the server's thread, walking
 * the tree or answering other calls, never waits behind its workers for a core, and they still get
 * every core it leaves idle. Best effort: elsewhere the worker runs at the server's priority.
 */
function yieldToServer(): void {
  if (!HAS_PROC_FD) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, Math.max(getPriority(tid), WORKER_NICENESS));
  } catch {
    // not permitted, or no such thread view
  }
}

// Started as a worker: a `SearchStart`, then lists of batches, each answered in order with one
// `done` (a message costs more than searching a small file). Imported (tests), do nothing.
const port = parentPort;
if (port) {
  yieldToServer();
  let config: WorkerConfig | undefined;
  let test: LineTest = () => -1;
  let progress: Int32Array | undefined;
  const post = (result: FileResult) => port.postMessage(result);
  port.on('message', (message: SearchStart | Batch[]) => {
    if (!Array.isArray(message)) {
      config = message.search;
      test = lineTest(config);
      progress = config.progress ? new Int32Array(config.progress) : undefined;
      return;
    }
    if (!config) return;
    for (const batch of message) searchBatch(batch, test, config, post, progress);
    const last = message[message.length - 1];
    if (last) port.postMessage({ done: last.first + last.names.length - 1 } satisfies BatchDone);
  });
}
