/**
 * Pages of a diff too large for one result. A diff is never cut silently: each page ends on a file
 * boundary when it can (else on a hunk, else a line), and carries a cursor to the next one.
 *
 * The first page runs git once: it reads the whole diff (up to {@link MAX_DIFF_READ}) and takes the
 * overview of the files from it (and, for git_show, the commit printed ahead of the patch). That
 * output is kept a short while (`diff-runs.ts`) and a later page is cut from it. Once it is gone, a
 * later page starts git at the file it resumes in (`--skip-to`), so the files already sent are
 * neither diffed nor read again, and reads only to the end of the page (git is killed there). The
 * cursor names that file, the character offset into its part and a digest of the part before the
 * offset: if that part changed between pages (the work tree moved on) or the file left the diff,
 * the cursor is refused rather than resumed at a wrong place. A change to a file already sent does
 * not move the place, so it does not stop the paging.
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength, utf8Prefix } from '@mcpkit/core/limits';
import { type CursorCodec, encodeBoundCursor } from '@mcpkit/core/pagination';
import type { DiffRuns } from './diff-runs.js';
import { GitFailed, gitError } from './errors.js';
import { type FileStat, parseNumstat } from './parse-numstat.js';
import { afterCombined, overviewOf, patchUnits, unitAt } from './patch-units.js';
import { decodeCursor, digest } from './read-cursor.js';
import { READ_TIMEOUT_MS, type Repository } from './repository.js';

/** Bytes of diff output one git run may print before it is stopped. */
export const MAX_DIFF_READ = 64 * 1024 * 1024;

/** Read past the page's end, to learn whether more follows. */
const SLACK = 4096;

/**
 * Where a page starts: in the part of file `f` ('' for the start of the whole output), `o`
 * characters (`b` UTF-8 bytes) into it, after text whose digest is `h`; `n` is the page number,
 * `p` the bytes of conflicted files' diffs git prints ahead of file `f` (see `afterCombined`).
 */
type DiffPosition = { f: string; o: number; b: number; h: string; n: number; p: number };

/** Pins the prefixes, so every file header reads `a/NAME b/NAME` whatever the configuration says. */
const PREFIXES = ['--src-prefix=a/', '--dst-prefix=b/'];

export interface DiffPageRequest {
  repo: Repository;
  /** The subcommand and its options, DIFF_SAFETY included by the caller: `['diff', '--cached', …]`. */
  options: readonly string[];
  /** What follows the options: `--end-of-options`, revisions, `--` and pathspecs. */
  tail: readonly string[];
  /** What failed, for error sentences: "git diff". */
  what: string;
  codec: CursorCodec;
  /** The tool's name: cursors of one tool are refused by the others. */
  list: string;
  /** The key of the call's arguments (see `keyOf`). */
  key: string;
  cursor: string | undefined;
  /**
   * A format whose text git prints ahead of the patch on the first page (git_show's commit), in
   * `fields` NUL-ended fields: the commit and its changes then come from one run. Later pages print
   * the patch alone.
   */
  preamble?: { format: string; fields: number };
  /**
   * Bytes of diff text this page may hold; told the files and the preamble on the first page (the
   * overview and the commit need room).
   */
  pageBytes: (files: readonly FileStat[] | undefined, preamble?: string) => number;
  signal: AbortSignal;
  /** Where the first page keeps its whole output for the later ones; without it, each page runs git. */
  runs?: DiffRuns;
  /** Called with the diff's output as it arrives (see `output-progress.ts`). */
  onOutput?: (chunk: Buffer) => void;
}

export interface DiffPage {
  /** The page's diff text. */
  text: string;
  /** 1 for the first page. */
  page: number;
  /** Every changed file, on the first page only. */
  files?: FileStat[];
  /** The header line of the file a page starting mid-file continues. */
  continues?: string;
  nextCursor?: string;
  /** True when one file's diff goes on past {@link MAX_DIFF_READ}: no cursor reaches the rest. */
  beyondLimit: boolean;
  /** The preamble's fields as git printed them, NULs included, on the first page only. */
  preamble?: string;
}

/** The page of the diff `request.cursor` points at (the first without a cursor). */
export async function diffPage(request: DiffPageRequest): Promise<DiffPage> {
  if (!request.cursor) return firstPage(request);
  const { codec, list, key } = request;
  const position = decodeCursor<DiffPosition>(codec, list, request.cursor, key, {
    f: 'string',
    o: 'number',
    b: 'number',
    h: 'string',
    n: 'number',
    p: 'number',
  });
  const pageBytes = request.pageBytes(undefined);
  const kept = keptFrom(request, position);
  if (kept) return finish(request, cut(request, position, kept.out, kept.ahead, false, pageBytes));
  const skip = position.f === '' ? [] : [`--skip-to=${position.f}`];
  const limit = Math.min(position.p + position.b + pageBytes + SLACK, MAX_DIFF_READ);
  const result = await run(request, skip, limit, request.onOutput);
  const skipped = afterCombined(result.stdout);
  const ahead = utf8ByteLength(result.stdout.slice(0, skipped));
  const out = position.f === '' ? result.stdout : result.stdout.slice(skipped);
  const first = position.f === '' ? undefined : unitAt(out, 0);
  const resumed = position.f === '' || (first?.start === 0 && first.path === position.f);
  if (!resumed || out.length < position.o || digest(out.slice(0, position.o)) !== position.h) {
    throw changed(list);
  }
  return finish(request, cut(request, position, out, ahead, result.truncated, pageBytes));
}

/** The key of a diff's kept output: the tool and its arguments, the repository among them. */
const runKey = (request: DiffPageRequest) => `${request.list}\0${request.key}`;

/**
 * The kept output from where `position` resumes, as `--skip-to` would print it; `undefined` when
 * none is kept, or it does not hold that place (another client's newer run of the same diff).
 */
function keptFrom(
  request: DiffPageRequest,
  position: DiffPosition,
): { out: string; ahead: number } | undefined {
  const run = request.runs?.get(runKey(request));
  if (!run) return undefined;
  const unit = position.f === '' ? undefined : run.units.find((u) => u.path === position.f && !u.combined);
  if (position.f !== '' && !unit) return undefined;
  const out = unit ? run.out.slice(unit.start) : run.out;
  if (out.length < position.o || digest(out.slice(0, position.o)) !== position.h) return undefined;
  return { out, ahead: run.ahead };
}

/** A later page: the kept output goes once its last page is read. */
function finish(request: DiffPageRequest, page: DiffPage): DiffPage {
  if (!page.nextCursor) request.runs?.drop(runKey(request));
  return page;
}

/** The first page: the whole diff is read once, for the overview and the page. */
async function firstPage(request: DiffPageRequest): Promise<DiffPage> {
  const { preamble: asked, onOutput } = request;
  // A later `--format` wins over the command's own `--format=`.
  const format = asked ? [`--format=format:${asked.format}`] : [];
  const counted = asked && onOutput ? afterFields(asked.fields, onOutput) : onOutput;
  const result = await run(request, format, MAX_DIFF_READ, counted);
  const split = asked
    ? splitPreamble(result.stdout, asked.fields, result.truncated, request.what)
    : undefined;
  const out = split ? split.patch : result.stdout;
  const preamble = split ? { preamble: split.preamble } : {};
  // Past the read limit the last file is cut: only there does a second run count the lines.
  const units = result.truncated ? [] : patchUnits(out);
  const files = result.truncated ? await numstat(request) : overviewOf(out, units);
  if (files.length === 0 && out.trim() === '') {
    return { text: '', page: 1, files, beyondLimit: false, ...preamble };
  }
  const start: DiffPosition = { f: '', o: 0, b: 0, h: '', n: 1, p: 0 };
  const ahead = utf8ByteLength(out.slice(0, afterCombined(out)));
  const page = cut(request, start, out, ahead, result.truncated, request.pageBytes(files, split?.preamble));
  // A whole output with more pages to come is kept for them; a cut one is read again from git.
  if (page.nextCursor && !result.truncated) request.runs?.keep(runKey(request), { out, units, ahead });
  return { ...page, files, ...preamble };
}

/**
 * The preamble's `fields` NUL-ended fields, and the patch after them: git puts one newline between
 * a `format:` text and a patch, and nothing when the patch is empty.
 */
function splitPreamble(
  out: string,
  fields: number,
  truncated: boolean,
  what: string,
): { preamble: string; patch: string } {
  let end = 0;
  for (let i = 0; i < fields; i++) {
    const nul = out.indexOf('\0', end);
    if (nul === -1) {
      // A message of many megabytes; or git printed no commit (the command must make sure it does).
      throw new UserError(
        truncated
          ? `${what} printed more than the ${MAX_DIFF_READ / 1024 / 1024} MiB this server reads at once before the changes began; this cannot be shown.`
          : `${what} did not print the commit ahead of its changes; try again, or report this.`,
      );
    }
    end = nul + 1;
  }
  const patch = out.startsWith('\n', end) ? out.slice(end + 1) : out.slice(end);
  return { preamble: out.slice(0, end), patch };
}

/**
 * `onOutput` handed only what comes after the first `fields` NULs: a commit message may quote a
 * patch, and its `diff --git` lines are not files of this one.
 */
function afterFields(fields: number, onOutput: (chunk: Buffer) => void): (chunk: Buffer) => void {
  let left = fields;
  return (chunk) => {
    let from = 0;
    while (left > 0) {
      const nul = chunk.indexOf(0, from);
      if (nul === -1) return;
      left--;
      from = nul + 1;
    }
    if (from < chunk.byteLength) onOutput(from === 0 ? chunk : chunk.subarray(from));
  };
}

/** Runs the request's diff with `extra` options; a failure becomes one sentence. */
async function run(
  request: DiffPageRequest,
  extra: readonly string[],
  maxOutputBytes: number,
  onOutput: ((chunk: Buffer) => void) | undefined,
) {
  const { repo } = request;
  const argv = [...request.options, ...PREFIXES, ...extra, ...request.tail];
  const result = await repo.runRaw(argv, {
    signal: request.signal,
    maxOutputBytes,
    timeoutMs: READ_TIMEOUT_MS,
    ...(onOutput ? { onOutput } : {}),
  });
  if (!result.truncated && result.code !== 0) {
    // The file a cursor resumes in is no longer in the diff.
    if (extra.some((o) => o.startsWith('--skip-to=')) && /No such path/.test(result.stderr)) {
      throw changed(request.list);
    }
    throw gitError(request.what, new GitFailed(argv[0] ?? 'diff', result), [[repo.top, '.']]);
  }
  return result;
}

/** The `--numstat -z` overview, for a diff too long to read whole; a cut listing keeps what it got. */
async function numstat(request: DiffPageRequest): Promise<FileStat[]> {
  const { repo } = request;
  const argv = [...request.options, '--numstat', '-z', ...request.tail];
  const out = await repo.runRaw(argv, { signal: request.signal, timeoutMs: READ_TIMEOUT_MS });
  if (!out.truncated && out.code !== 0) {
    throw gitError(request.what, new GitFailed(argv[0] ?? 'diff', out), [[repo.top, '.']]);
  }
  const files = parseNumstat(out.stdout);
  return out.truncated ? files.slice(0, -1) : files;
}

/**
 * The page of `out` (git's output from the start of the file `from.f`) that begins at `from.o`,
 * and the cursor to the next one: named by the file the cut falls in. `ahead` is the size of the
 * conflicted files' diffs git prints before any file it skips to.
 */
function cut(
  request: DiffPageRequest,
  from: DiffPosition,
  out: string,
  ahead: number,
  truncated: boolean,
  pageBytes: number,
): DiffPage {
  const rest = out.slice(from.o);
  const page = { page: from.n, ...continuation(out, from.o) };
  // A character is at least a byte: a longer text cannot fit, and is not measured whole.
  if (!truncated && rest.length <= pageBytes && utf8ByteLength(rest) <= pageBytes) {
    return { text: rest, ...page, beyondLimit: false };
  }
  const end = cutPoint(rest, pageBytes);
  const text = rest.slice(0, end);
  const at = from.o + end;
  const found = unitAt(out, at);
  // Inside a conflicted file's diff (which `--skip-to` cannot name) or before the first file, the
  // position is kept from the start of the output.
  const unit = found?.combined ? undefined : found;
  const base = unit ? unit.start : 0;
  const prefix = out.slice(base, at);
  const next: DiffPosition = {
    f: unit ? unit.path : from.f,
    o: at - base,
    b: utf8ByteLength(prefix),
    h: digest(prefix),
    n: from.n + 1,
    p: unit ? ahead : 0,
  };
  // The next page could not even be read within the limit: say so instead of handing out a cursor.
  if (next.p + next.b + SLACK >= MAX_DIFF_READ) return { text, ...page, beyondLimit: true };
  return {
    text,
    ...page,
    nextCursor: encodeBoundCursor(request.codec, request.list, request.key, next),
    beyondLimit: false,
  };
}

function changed(list: string): UserError {
  return new UserError(
    `The diff changed since the previous page was read; call ${list} again without cursor to start over.`,
  );
}

/** Where a page of at most `maxBytes` of `text` ends: a file, hunk or line boundary when it can. */
function cutPoint(text: string, maxBytes: number): number {
  // No more characters than bytes fit: one more keeps a surrogate pair at the edge whole.
  const window = utf8Prefix(text.slice(0, maxBytes + 1), maxBytes).text;
  const after = (index: number) => (index > 0 ? index + 1 : 0);
  const file = after(Math.max(window.lastIndexOf('\ndiff --git '), window.lastIndexOf('\ndiff --cc ')));
  const hunk = after(window.lastIndexOf('\n@@'));
  const line = after(window.lastIndexOf('\n'));
  // A boundary in the first half of the window wastes the page: take a finer one that is later.
  for (const candidate of [file, Math.max(file, hunk), Math.max(file, hunk, line)]) {
    if (candidate >= window.length / 2) return candidate;
  }
  const best = Math.max(file, hunk, line);
  return best > 0 ? best : Math.max(1, window.length);
}

/** For a page that starts inside a file: that file's `diff --git` line. */
function continuation(out: string, offset: number): { continues?: string } {
  if (offset === 0 || out.startsWith('diff ', offset)) return {};
  const start = out.lastIndexOf('\ndiff ', offset - 1);
  const from = start === -1 ? (out.startsWith('diff ') ? 0 : -1) : start + 1;
  if (from === -1) return {};
  const end = out.indexOf('\n', from);
  const line = out.slice(from, end === -1 ? undefined : end);
  // Held short, so the room kept for the notices around a page always holds it.
  return { continues: line.length > 300 ? `${line.slice(0, 297)}...` : line };
}
