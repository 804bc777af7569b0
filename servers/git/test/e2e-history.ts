/**
 * A repository whose blame is slow on purpose, for the every-feature scenario's cancellations: one
 * file rewritten by hundreds of commits, each version a different shuffle of its lines. Blaming it
 * diffs every version against the one before, and two shuffles differ almost everywhere, so each
 * diff costs git real work; the first line never changes, so the blame walks the whole history.
 * git fast-import writes it in well under a second: the versions are a few shuffles reused in turn
 * (stored once each), while each commit still differs from its parent.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { FIXTURE_ENV, git } from './make-repo.js';

export interface SlowHistoryOptions {
  /** Commits that rewrite the file. */
  commits: number;
  /** Lines of the file besides its first. */
  lines: number;
  /** Distinct shuffles the commits cycle through. */
  versions?: number;
}

/** The file whose blame is slow, relative to the work tree. */
export const SLOW_FILE = 'shuffled.txt';

/** The first line, which every version keeps: the one whose blame goes back to the first commit. */
export const SLOW_FILE_FIRST_LINE = 'kept since the first commit';

/** A repeatable pseudo-random sequence, so every run builds the same repository. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** `count` shuffles of `lines` numbered lines, each a whole file with the fixed first line. */
function shuffles(lines: number, count: number): Buffer[] {
  const next = sequence(20260101);
  const order = Array.from({ length: lines }, (_, i) => `line ${i} of the shuffled file`);
  const out: Buffer[] = [];
  for (let v = 0; v < count; v++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j] as string, order[i] as string];
    }
    out.push(Buffer.from(`${SLOW_FILE_FIRST_LINE}\n${order.join('\n')}\n`));
  }
  return out;
}

/** Creates the repository at `dir` on branch main, its work tree checked out; returns `dir`. */
export async function makeSlowHistory(dir: string, options: SlowHistoryOptions): Promise<string> {
  await mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Test User');
  git(dir, 'config', 'user.email', 'test@example.com');
  const versions = shuffles(options.lines, options.versions ?? 16);
  // Uncompressed objects: the import is several times faster, and the repository stays small
  // anyway because the versions repeat.
  const child = spawn('git', ['-c', 'core.compression=0', 'fast-import', '--quiet'], {
    cwd: dir,
    env: FIXTURE_ENV,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'close');
  exited.catch(() => {}); // awaited below; this only keeps an early spawn failure from going unhandled
  // A git that dies early fails the import through its exit code, not a broken pipe.
  child.stdin.on('error', () => {});
  const start = Date.parse('2026-01-01T00:00:00Z') / 1000;
  for (let c = 1; c <= options.commits; c++) {
    const message = `Shuffle the file, take ${c}\n`;
    const data = versions[c % versions.length] as Buffer;
    const head =
      `commit refs/heads/main\nmark :${c}\n` +
      `committer Test User <test@example.com> ${start + c * 60} +0000\n` +
      `data ${Buffer.byteLength(message)}\n${message}` +
      (c > 1 ? `from :${c - 1}\n` : '') +
      `M 100644 inline ${SLOW_FILE}\ndata ${data.length}\n`;
    child.stdin.write(head);
    if (!child.stdin.write(Buffer.concat([data, Buffer.from('\n')]))) {
      await Promise.race([once(child.stdin, 'drain'), exited]);
    }
  }
  child.stdin.end();
  const [code] = (await exited) as [number | null];
  if (code !== 0) throw new Error(`git fast-import failed (${code}): ${stderr.trim()}`);
  git(dir, 'reset', '-q', '--hard', 'main');
  return dir;
}
