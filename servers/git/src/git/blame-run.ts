/**
 * The git runs of one blame. The text of the file is read first (see `blame-source.ts`), then
 * `git blame --incremental` settles the lines while progress counts them out of the file's (see
 * `blame-progress.ts`), and each line is given its text. In the work tree a third short run then
 * hashes the file on disk as blame read it, and the text counts only if it is of that very blob.
 * More runs than the porcelain form alone, because porcelain prints nothing before the whole file
 * is settled: a client would see no movement during a blame that takes seconds.
 *
 * The porcelain run is kept for what this cannot do: when the text cannot be read here, or when
 * the blame and the text disagree (the index vouched for a file that differs on disk, or the file
 * changed between the runs), it blames again the old way, so the answer is never made of two
 * different versions of the file.
 */
import type { ProgressReporter } from '@mcpkit/core/progress';
import { blameProgress } from './blame-progress.js';
import { blameSource, sameBlob } from './blame-source.js';
import { GitFailed, gitError } from './errors.js';
import { type Attribution, type BlameLine, parseBlame, parseIncremental } from './parse-blame.js';
import { READ_TIMEOUT_MS, type Repository } from './repository.js';
import { foldersOf, refuseSpecialTreeFiles } from './special-files.js';

/** Output read for one call at most, by each run: many times what one result shows. */
const MAX_BLAME_READ = 64 * 1024 * 1024;

export interface BlameRequest {
  repo: Repository;
  /** The path blame takes, relative to the work tree. */
  file: string;
  /** The same path as a literal pathspec. */
  spec: string;
  /** The commit blamed; none for the work tree. */
  sha: string | undefined;
  /** The lines asked for; both optional, `end` not before `start`. */
  start: number | undefined;
  end: number | undefined;
  /** The file's name in progress messages. */
  name: string;
  progress: ProgressReporter;
  signal: AbortSignal;
}

export interface BlameRead {
  /** The lines blamed, in order from the first asked for. */
  lines: BlameLine[];
  /** True when the read limit cut the blame: more lines follow the ones given. */
  truncated: boolean;
}

/** Blames the lines `request` asks for. */
export async function blame(request: BlameRequest): Promise<BlameRead> {
  const { repo, sha, start, end } = request;
  // Blame reads the attributes of each folder down to the file (the top's, and the git
  // directory's files, were looked at when the repository was opened).
  await refuseSpecialTreeFiles(repo, foldersOf(request.file));
  const source = await blameSource({
    ...request,
    maxBytes: MAX_BLAME_READ,
    timeoutMs: READ_TIMEOUT_MS,
  });
  const first = start ?? 1;
  // Past the end of the file, blame refuses the range in its own words; nothing is counted.
  const last = Math.min(end ?? Number.MAX_SAFE_INTEGER, source?.lines.length ?? 0);
  const progress = blameProgress(request.progress, request.name, Math.max(0, last - first + 1));
  const range = start !== undefined || end !== undefined ? ['-L', `${first},${end ?? ''}`] : [];
  const options = [
    '--no-textconv',
    '--no-ignore-revs-file',
    ...range,
    ...(sha ? [sha] : []),
    '--',
    request.file,
  ];
  let read: BlameRead | undefined;
  if (source) {
    const out = await run(repo, ['blame', '--incremental', ...options], request.signal, progress.onOutput);
    read = withText(parseIncremental(out.stdout), source.lines, first, end, out.truncated);
    // After the blame: a file changed since the text was read no longer hashes to its blob.
    const { blob } = source;
    const checks = { timeoutMs: READ_TIMEOUT_MS, signal: request.signal };
    if (read && blob && !(await sameBlob(repo, request.file, blob, checks))) read = undefined;
  }
  if (!read) {
    const out = await run(repo, ['blame', '--porcelain', ...options], request.signal);
    read = { lines: parseBlame(out.stdout), truncated: out.truncated };
  }
  progress.finish();
  return read;
}

/** Runs one blame; a failure becomes one sentence. */
async function run(
  repo: Repository,
  argv: string[],
  signal: AbortSignal,
  onOutput?: (chunk: Buffer) => void,
) {
  const out = await repo.runRaw(argv, {
    signal,
    maxOutputBytes: MAX_BLAME_READ,
    timeoutMs: READ_TIMEOUT_MS,
    ...(onOutput ? { onOutput } : {}),
  });
  if (!out.truncated && out.code !== 0) {
    throw gitError('git blame', new GitFailed('blame', out), [[repo.top, '.']]);
  }
  return out;
}

/**
 * The settled lines from `first` with their text, or `undefined` when the blame and the text do
 * not fit together: a line not settled or without text, or (to the end of the file) a settled line
 * past the text's end. A cut blame keeps the lines settled without a gap from `first`.
 */
function withText(
  settled: readonly (Attribution | undefined)[],
  text: readonly string[],
  first: number,
  end: number | undefined,
  truncated: boolean,
): BlameRead | undefined {
  const last = end ?? text.length;
  if (!truncated && (settled.length - 1 > last || last > text.length)) return undefined;
  const lines: BlameLine[] = [];
  for (let line = first; line <= last; line++) {
    const who = settled[line];
    const words = text[line - 1];
    if (who === undefined || words === undefined) {
      if (truncated && lines.length > 0) break;
      return undefined;
    }
    lines.push({ line, ...who, text: words });
  }
  return { lines, truncated };
}
