/**
 * The whole output of a diff whose first page was read, kept a short while so its later pages are
 * cut from it instead of running git again. Reading a 5 MB diff page by page cost about 1.4× plain
 * git in git runs alone (each later page ran `git diff --skip-to`); from the kept output, a later
 * page costs no git run. The pages of one diff are then of one moment, the first page's; once the
 * output is dropped (time, room, or the last page read) a later page runs git again as before, and
 * is refused if the diff changed where it resumes.
 *
 * Bounded on every side: one output at most {@link MAX_KEPT_CHARS}, all of them at most
 * {@link MAX_TOTAL_CHARS}, each for {@link KEEP_MS}; the oldest goes first.
 */
import type { PatchUnit } from './patch-units.js';

/** A diff's output as the first page read it. */
export interface KeptRun {
  /** The patch, from its first line (after git_show's commit). */
  readonly out: string;
  /** Its files, in order (see `patchUnits`). */
  readonly units: readonly PatchUnit[];
  /** UTF-8 bytes of the conflicted files' diffs git prints ahead of any file it skips to. */
  readonly ahead: number;
}

/** Characters of one diff's output that are kept; a longer one is read again page by page. */
export const MAX_KEPT_CHARS = 16 * 1024 * 1024;
/** Characters kept across every diff: about twice as many bytes at worst. */
export const MAX_TOTAL_CHARS = 32 * 1024 * 1024;
/** How long an output is kept after its first page: a client reading on does so within minutes. */
export const KEEP_MS = 2 * 60_000;

/** The outputs kept, by the tool, repository and arguments the cursor is bound to. */
export class DiffRuns {
  readonly #runs = new Map<string, { run: KeptRun; until: number }>();
  #chars = 0;
  readonly #now: () => number;

  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
  }

  /** Keeps `run` for the diff of `key`, replacing an older one; an output too long is not kept. */
  keep(key: string, run: KeptRun): void {
    this.drop(key);
    if (run.out.length > MAX_KEPT_CHARS) return;
    this.#expire();
    for (const [oldest] of this.#runs) {
      if (this.#chars + run.out.length <= MAX_TOTAL_CHARS) break;
      this.drop(oldest);
    }
    this.#runs.set(key, { run, until: this.#now() + KEEP_MS });
    this.#chars += run.out.length;
  }

  /** The output kept for the diff of `key`, while it is kept. */
  get(key: string): KeptRun | undefined {
    this.#expire();
    return this.#runs.get(key)?.run;
  }

  /** Forgets the output of `key` (its last page was read). */
  drop(key: string): void {
    const kept = this.#runs.get(key);
    if (!kept) return;
    this.#runs.delete(key);
    this.#chars -= kept.run.out.length;
  }

  /** Characters held, for tests. */
  get chars(): number {
    return this.#chars;
  }

  #expire(): void {
    const now = this.#now();
    for (const [key, kept] of this.#runs) if (kept.until <= now) this.drop(key);
  }
}
