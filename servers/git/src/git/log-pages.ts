/**
 * One page of `git log`, read without walking the whole history. Git is stopped once it has
 * printed a little more than a page can hold (a record is about as long as its text), and the
 * page after it starts where this one ended instead of re-walking and skipping what was shown.
 *
 * Where a log can resume: `git log X` walks from a queue holding only X. While the commits shown
 * form a chain from the commit the walk started at, each with one parent that is the next commit
 * shown, git's queue never held anything else, so `git log <next>` with the same filters prints
 * exactly what `git log <start>` would have printed after this page. Once a merge (or a commit the
 * filters hid) breaks the chain, the page after resumes from the last link with `--skip`.
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import { GitFailed, gitError } from './errors.js';
import { type Commit, commitText, LOG_FORMAT, parseLog } from './parse-log.js';
import { READ_TIMEOUT_MS, type Repository } from './repository.js';

/** Bytes one git run may print for a page: a commit message as long as this is read whole. */
const MAX_LOG_READ = 64 * 1024 * 1024;

/** Read beyond the page's text budget: records carry fields the text leaves out. */
const READ_SLACK = 64 * 1024;

/** Where a page starts: `git log <h> --skip=<s>` with the call's filters. */
export interface LogStart {
  h: string;
  s: number;
}

export interface LogPageRequest {
  repo: Repository;
  start: LogStart;
  /** Commits a page may hold. */
  size: number;
  /** Bytes of text a page may hold. */
  budget: number;
  /** `--since=…`, `--until=…`: the filters, the same on every page. */
  filters: readonly string[];
  /** Pathspecs after `--`. A path-limited log resumes with `--skip` only (history simplification). */
  specs: readonly string[];
  signal: AbortSignal;
  /** Called with git's output as it arrives (see `output-progress.ts`). */
  onOutput?: (chunk: Buffer) => void;
}

export interface LogPage {
  commits: Commit[];
  /** The commits as text, separated by blank lines. */
  text: string;
  /** Where the next page starts, when more commits follow. */
  next?: LogStart;
}

/** Reads the page of the log that starts at `request.start`. */
export async function readLogPage(request: LogPageRequest): Promise<LogPage> {
  const { start, size, budget } = request;
  let read = await run(request, Math.min(MAX_LOG_READ, budget + Math.floor(budget / 4) + READ_SLACK));
  // One message longer than a page's read: read again, as far as a commit may go.
  if (read.commits.length === 0 && read.truncated) read = await run(request, MAX_LOG_READ);
  if (read.commits.length === 0 && read.truncated) {
    throw new UserError('The next commit is too large to read; narrow the log with path or the dates.');
  }
  const { commits, text } = fit(read.commits.slice(0, size), budget);
  const more = commits.length < read.commits.length || read.truncated;
  if (!more) return { commits, text };
  const following = read.commits[commits.length];
  const chains = request.specs.length === 0 && start.s === 0 && commits[0]?.sha === start.h;
  return {
    commits,
    text,
    next: chains ? resumeAfter(commits, following) : { h: start.h, s: start.s + commits.length },
  };
}

/**
 * Where to resume after `shown`, a page that starts with the walk's first commit: the end of the
 * chain of single parents from there, and how many shown commits lie past that link.
 */
function resumeAfter(shown: readonly Commit[], following: Commit | undefined): LogStart {
  const sequence = following ? [...shown, following] : shown;
  let link = 0;
  while (link < shown.length) {
    const commit = shown[link];
    const next = sequence[link + 1];
    if (!commit || !next || commit.parents.length !== 1 || commit.parents[0] !== next.sha) break;
    link++;
  }
  return { h: sequence[link]?.sha ?? '', s: shown.length - link };
}

async function run(request: LogPageRequest, maxOutputBytes: number) {
  const { repo, start } = request;
  const argv = ['log', '-z', '--no-color', '--encoding=UTF-8', LOG_FORMAT, `--max-count=${request.size + 1}`];
  if (start.s > 0) argv.push(`--skip=${start.s}`);
  argv.push(...request.filters, '--end-of-options', start.h, '--', ...request.specs);
  const out = await repo.runRaw(argv, {
    signal: request.signal,
    maxOutputBytes,
    timeoutMs: READ_TIMEOUT_MS,
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
  });
  if (!out.truncated && out.code !== 0)
    throw gitError('git log', new GitFailed('log', out), [[repo.top, '.']]);
  return { commits: parseLog(out.stdout), truncated: out.truncated };
}

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
