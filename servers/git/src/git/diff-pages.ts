/**
 * Pages of a diff too large for one result. A diff is never cut silently: each page ends on a file
 * boundary when it can (else on a hunk, else a line), and carries a cursor to the next one.
 *
 * The cursor holds a character offset into git's output, the UTF-8 size of everything before it,
 * and a digest of that prefix. Each page runs the same git command again, reads only up to the end
 * of the page (git is killed there), and checks the digest: if the diff changed between pages (the
 * work tree moved on), the cursor is refused rather than resuming at a wrong place. Reading stops
 * at {@link MAX_DIFF_READ} bytes of diff: past that, the caller must narrow the diff with paths.
 */
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength, utf8Prefix } from '@mcpkit/core/limits';
import type { CursorCodec } from '@mcpkit/core/pagination';
import { GitFailed, gitError } from './errors.js';
import { decodeCursor, digest } from './read-cursor.js';
import type { Repository } from './repository.js';

/** Bytes of diff output a page may read from git, the pages before it included. */
export const MAX_DIFF_READ = 64 * 1024 * 1024;

/** Long diffs on big repositories: git may take this long before it is stopped. */
export const READ_TIMEOUT_MS = 120_000;

/** Read past the page's end, to learn whether more follows. */
const SLACK = 4096;

type DiffPosition = { k: string; o: number; b: number; h: string; n: number };

export interface DiffPageRequest {
  repo: Repository;
  /** The full git argument vector that prints the diff (DIFF_SAFETY included by the caller). */
  argv: readonly string[];
  /** What failed, for error sentences: "git diff". */
  what: string;
  codec: CursorCodec;
  /** The tool's name: cursors of one tool are refused by the others. */
  list: string;
  /** The key of the call's arguments (see `keyOf`). */
  key: string;
  cursor: string | undefined;
  /** Bytes of diff text this page may hold. */
  pageBytes: number;
  signal: AbortSignal;
}

export interface DiffPage {
  /** The page's diff text. */
  text: string;
  /** 1 for the first page. */
  page: number;
  /** The header line of the file a page starting mid-file continues. */
  continues?: string;
  nextCursor?: string;
  /** True when the diff goes on past {@link MAX_DIFF_READ}: no cursor reaches the rest. */
  beyondLimit: boolean;
}

/** The page of the diff `request.cursor` points at (the first without a cursor). */
export async function diffPage(request: DiffPageRequest): Promise<DiffPage> {
  const { repo, codec, list, key } = request;
  const position: DiffPosition = request.cursor
    ? decodeCursor<DiffPosition>(codec, list, request.cursor, key, {
        o: 'number',
        b: 'number',
        h: 'string',
        n: 'number',
      })
    : { k: key, o: 0, b: 0, h: '', n: 1 };
  const result = await repo.runRaw(request.argv, {
    signal: request.signal,
    maxOutputBytes: Math.min(position.b + request.pageBytes + SLACK, MAX_DIFF_READ),
    timeoutMs: READ_TIMEOUT_MS,
  });
  if (!result.truncated && result.code !== 0) {
    throw gitError(request.what, new GitFailed(request.argv[0] ?? 'diff', result), [[repo.top, '.']]);
  }
  const out = result.stdout;
  if (position.o > 0 && (out.length < position.o || digest(out.slice(0, position.o)) !== position.h)) {
    throw new UserError(
      `The diff changed since the previous page was read; call ${list} again without cursor to start over.`,
    );
  }
  const rest = out.slice(position.o);
  const page = { page: position.n, ...continuation(out, position.o) };
  if (!result.truncated && utf8ByteLength(rest) <= request.pageBytes) {
    return { text: rest, ...page, beyondLimit: false };
  }
  const cut = cutPoint(rest, request.pageBytes);
  const text = rest.slice(0, cut);
  const next: DiffPosition = {
    k: key,
    o: position.o + cut,
    b: position.b + utf8ByteLength(text),
    h: digest(out.slice(0, position.o + cut)),
    n: position.n + 1,
  };
  // The next page could not even be read within the limit: say so instead of handing out a cursor.
  if (next.b + SLACK >= MAX_DIFF_READ) return { text, ...page, beyondLimit: true };
  return { text, ...page, nextCursor: codec.encode(list, next), beyondLimit: false };
}

/** Where a page of at most `maxBytes` of `text` ends: a file, hunk or line boundary when it can. */
export function cutPoint(text: string, maxBytes: number): number {
  const window = utf8Prefix(text, maxBytes).text;
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
