/**
 * The thread that reads files and runs the pattern for search_content. A JavaScript regex can take
 * exponential time (`(a+)+$` on "aaaa…!"), and V8 cannot interrupt it from the same thread, so the
 * matching runs here, where the server can `terminate()` it on a time budget or a cancellation
 * without ever blocking its own event loop.
 *
 * This file imports nothing but Node built-ins: it runs as compiled JavaScript beside
 * content-search.js (see `contentWorkerUrl` there).
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

/**
 * True when the opened file is the very file the walk listed at `path` under `root`. A directory on
 * the way swapped for a link after the walk fails this, whether the link leads outside the roots or
 * to a directory inside them that the walk left out (`.ssh`, an excluded folder). Fails closed.
 */
function openedAt(fd: number, path: string, root: string): boolean {
  if (!HAS_PROC_FD) return true;
  try {
    const real = readlinkSync(`/proc/self/fd/${fd}`);
    return real === path && real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    return false;
  }
}

/** Reads and searches one file, refusing links, special files, binaries and files over the cap. */
export function searchFile(job: FileJob, test: LineTest, config: WorkerConfig): FileResult {
  let fd: number;
  try {
    fd = openSync(job.path, OPEN_FLAGS);
  } catch {
    return { id: job.id, hits: [], skipped: 'unreadable' };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || !openedAt(fd, job.path, config.root))
      return { id: job.id, hits: [], skipped: 'unreadable' };
    if (info.size > config.maxFileBytes) return { id: job.id, hits: [], skipped: 'large' };
    // One byte more than the cap: a file that grew since fstat is caught, not read without end.
    const buffer = Buffer.allocUnsafe(Math.min(info.size, config.maxFileBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > config.maxFileBytes) return { id: job.id, hits: [], skipped: 'large' };
    if (buffer.subarray(0, Math.min(length, BINARY_SNIFF_BYTES)).includes(0))
      return { id: job.id, hits: [], skipped: 'binary' };
    const text = buffer.toString('utf8', 0, length);
    return { id: job.id, hits: searchText(text, test, config, job.skip, job.limit) };
  } catch {
    return { id: job.id, hits: [], skipped: 'unreadable' };
  } finally {
    closeSync(fd);
  }
}

// Started as a worker: answer each batch of jobs in order. Imported (tests), do nothing.
const port = parentPort;
if (port) {
  const config = workerData as WorkerConfig;
  const test = lineTest(config);
  port.on('message', (jobs: FileJob[]) => {
    for (const job of jobs) port.postMessage(searchFile(job, test, config));
  });
}
