/**
 * The text of the file a blame settles, line by line. `git blame --incremental` names the commit
 * of each range of lines but not the lines themselves, so their text is read in one short run of
 * its own, before the blame (which then knows how many lines it is counting towards):
 *
 * - at a commit, the blob itself (`cat-file blob <sha>:<path>`): what blame reads, byte for byte;
 * - in the work tree, a diff of the file against the empty tree: the one read-only command that
 *   prints the work tree file the way blame reads it, through the repository's end-of-line,
 *   encoding and (emptied) filter rules, where reading the file directly would not.
 *
 * The diff is not enough on its own: for a file the index calls unchanged (its stat data match, or
 * it is marked assume-unchanged or skip-worktree) it prints the staged copy from the object store,
 * while blame reads the file on disk, so an edit that keeps the line count would pass unseen. So
 * the diff also names the blob it printed (`--full-index`), and after the blame {@link sameBlob}
 * hashes the file on disk the way blame read it: the text is used only when the two are one blob.
 *
 * When the text cannot be had this way (a file past the read limit, a SHA-256 repository, which
 * names its empty tree differently, a path that is not one tracked regular file), the answer is
 * `undefined` and the blame falls back to its porcelain form, which carries the text itself.
 */
import { DIFF_SAFETY } from './hardening.js';
import type { Repository } from './repository.js';

/** The empty tree of a SHA-1 repository: git knows it whether or not the repository stores it. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The header of a diff that adds one regular file, with the name of the blob it prints. A symlink
 * (120000) is left out: hashing its path would read the file it points to, not the link blame reads.
 */
const ADDED_FILE = /\nnew file mode 100(?:644|755)\nindex 0+\.\.([0-9a-f]{40,64})\n/;

export interface SourceRequest {
  repo: Repository;
  /** The path blame takes, relative to the work tree. */
  file: string;
  /** The same path as a literal pathspec (`:(literal)…`), for the diff. */
  spec: string;
  /** The commit blamed; none for the work tree. */
  sha: string | undefined;
  /** Bytes the run may print before it is stopped (and the text given up). */
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface BlameSource {
  /** The file's lines as blame numbers them (from index 0). */
  lines: string[];
  /** In the work tree, the blob the lines are the text of, to check with {@link sameBlob}. */
  blob?: string;
}

/** The file's text, or `undefined` when it cannot be read here. */
export async function blameSource(request: SourceRequest): Promise<BlameSource | undefined> {
  const { repo, file, spec, sha } = request;
  const argv = sha
    ? ['cat-file', 'blob', `${sha}:${file}`]
    : [
        'diff',
        ...DIFF_SAFETY,
        '--no-color',
        '--text',
        '--full-index',
        '--unified=0',
        '--no-renames',
        EMPTY_TREE,
        '--',
        spec,
      ];
  const out = await repo.runRaw(argv, {
    signal: request.signal,
    maxOutputBytes: request.maxBytes,
    timeoutMs: request.timeoutMs,
  });
  // A failure is left for blame to explain: it fails the same way, in its own words.
  if (out.truncated || out.code !== 0) return undefined;
  if (sha) return { lines: splitLines(out.stdout) };
  const blob = ADDED_FILE.exec(out.stdout)?.[1];
  const lines = addedLines(out.stdout);
  return blob && lines ? { lines, blob } : undefined;
}

/**
 * Whether the work tree file is now the blob `blob`, hashed as blame reads it: `hash-object` with
 * `--path` applies the same end-of-line, encoding and ident rules and the same (emptied) filters,
 * and reads the file on disk whatever the index says. Run after the blame, so a file changed
 * since the text was read is caught too.
 */
export async function sameBlob(
  repo: Repository,
  file: string,
  blob: string,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<boolean> {
  const out = await repo.runRaw(['hash-object', `--path=${file}`, '--', file], {
    signal: options.signal,
    maxOutputBytes: 1024,
    timeoutMs: options.timeoutMs,
  });
  return out.code === 0 && out.stdout.trim() === blob;
}

/** A file's text as blame splits it: at each newline, a last line without one included. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The lines of a diff that adds one whole file: after the one hunk header `@@ -0,0 +1,N @@`, N
 * lines each behind a `+`, and maybe git's note that the last has no newline. An empty file has
 * its header and no hunk. Anything else (no file, several files) is not read.
 */
function addedLines(diff: string): string[] | undefined {
  if (!diff.startsWith('diff --git ') || diff.includes('\ndiff ')) return undefined;
  const hunk = diff.indexOf('\n@@ ');
  if (hunk === -1) return /\nnew file mode /.test(diff) ? [] : undefined;
  const headerEnd = diff.indexOf('\n', hunk + 1);
  const header = /^@@ -0,0 \+1(?:,(\d+))? @@/.exec(diff.slice(hunk + 1, headerEnd));
  if (!header || headerEnd === -1) return undefined;
  const count = header[1] === undefined ? 1 : Number(header[1]);
  const rows = diff.slice(headerEnd + 1).split('\n');
  if (rows.length < count) return undefined;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = rows[i] as string;
    if (!row.startsWith('+')) return undefined;
    lines.push(row.slice(1));
  }
  const rest = rows.slice(count);
  const ending = rest[0]?.startsWith('\\') ? rest.slice(1) : rest;
  return ending.length === 1 && ending[0] === '' ? lines : undefined;
}
