import type { Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';
import {
  escapeControlChars,
  parseMountInfo,
  type StallScope,
  slowPaths,
  stallScopeOf,
} from '@mcpkit/core/roots';

/** What walks the tree, for the sentence that stops it at a mount point. */
export type TreeAction = 'delete' | 'move';

/** Options of {@link TreeGuard.open}. */
export interface TreeGuardOptions {
  /** The call's signal: checked before every entry, and its stall scope joined on a slow mount. */
  signal?: AbortSignal | undefined;
  action: TreeAction;
  /** The top's device (its `lstat`), when the caller has it; otherwise the top's own check sets it. */
  dev?: number;
}

/** Steps between two renewals of the call's deadline: each one re-arms a timer. */
const ALIVE_EVERY = 16;

/**
 * What counting, deleting or copying a tree checks at each entry before touching it. Three rules:
 *
 * - **A slow mount below the top** (a share mounted inside the directory) joins the call's stall
 *   scope before the first file call on it, so a stalled mount ends the call with the guard's
 *   sentence at its deadline instead of holding it; every step done renews that deadline, so a
 *   big tree that is moving is not taken for a stalled one.
 * - **A given-up or cancelled call stops** at the next entry: nothing more is changed.
 * - **No crossing onto another mount**, as `rm -r --one-file-system` does: a directory on another
 *   device than the top, or (Linux) listed as a mount point in the mount table, which also catches
 *   a bind mount of the same file system, stops the walk before anything inside it is touched.
 *   A recursive delete that went on would empty whatever is mounted there (a backup disk, a bind
 *   mount of a home directory), which the user named nowhere.
 */
export class TreeGuard {
  readonly signal: AbortSignal | undefined;
  /** Something in place was removed or committed: a stop now leaves the tree partly changed. */
  changed = false;
  readonly #top: { real: string; display: string };
  readonly #action: TreeAction;
  readonly #scope: StallScope | undefined;
  readonly #mountPoints: ReadonlySet<string>;
  #dev: number | undefined;
  #entered = false;
  #steps = 0;

  private constructor(
    top: { real: string; display: string },
    options: TreeGuardOptions,
    mountPoints: ReadonlySet<string>,
  ) {
    this.#top = top;
    this.signal = options.signal;
    this.#action = options.action;
    this.#dev = options.dev;
    this.#scope = stallScopeOf(options.signal);
    this.#mountPoints = mountPoints;
  }

  /** A guard for the tree at `top.real` (a checked real path), named `top.display` in messages. */
  static async open(top: { real: string; display: string }, options: TreeGuardOptions): Promise<TreeGuard> {
    return new TreeGuard(top, options, await mountPointsBelow(top.real));
  }

  /** The safe name of the entry at `relative` (`/`-separated, from the top) for messages. */
  display(relative: string): string {
    return relative === '' ? this.#top.display : `${this.#top.display}/${escapeControlChars(relative)}`;
  }

  /**
   * Call before the first file call on the entry at `real` (`relative` from the top): stops a call
   * that was given up or cancelled, and puts a slow mount under the call's deadline and slot.
   */
  async enter(real: string, relative: string): Promise<void> {
    throwIfAborted(this.signal);
    if (this.#entered || !this.#scope || !slowPaths.isSlow(real)) return;
    this.#entered = true;
    await this.#scope.enter(real, this.display(relative));
  }

  /** A step was done: on a slow mount, that is progress, so the call's deadline starts again. */
  step(): void {
    if (this.#entered && ++this.#steps % ALIVE_EVERY === 0) this.#scope?.alive();
  }

  /**
   * Stops at the directory at `relative` (its `lstat` is `stats`) when it is a mount point: on
   * another device than the top, or in the mount table. The top's own check sets the device.
   */
  checkDirectory(stats: Stats, real: string, relative: string): void {
    if (relative === '') {
      this.#dev ??= stats.dev;
      return;
    }
    if (stats.dev === this.#dev && !this.#mountPoints.has(real)) return;
    throw this.#crossing(relative);
  }

  /**
   * Refuses at once when the mount table shows a mount point anywhere below the top: nothing has
   * to be walked (or touched, on a mount that may be stalled) to know the walk would stop there.
   */
  refuseListedMounts(): void {
    const first = [...this.#mountPoints].sort()[0];
    if (first !== undefined) throw this.#crossing(first.slice(this.#top.real.length + 1));
  }

  #crossing(relative: string): UserError {
    const mount = `"${this.display(relative)}"`;
    const inside = `(another file system inside "${this.#top.display}")`;
    if (this.#action === 'delete') {
      return new UserError(
        this.changed
          ? `The delete stopped at ${mount}, a mount point ${inside} that a recursive delete does not cross: what it had reached is deleted and the rest is kept; unmount it, or delete what is inside it separately.`
          : `Nothing was deleted: ${mount} is a mount point ${inside}, which a recursive delete does not cross; unmount it first, or delete what is inside it separately.`,
      );
    }
    return new UserError(
      this.changed
        ? `The move stopped at ${mount}, a mount point ${inside} that a move does not cross: the copy is at the destination and what was not yet removed of "${this.#top.display}" is kept; unmount it, or delete what is inside it separately.`
        : `Nothing was moved: ${mount} is a mount point ${inside}, which a move to another file system does not copy; unmount it first, or move what is inside it separately.`,
    );
  }
}

/**
 * The mount points strictly below `top`, from Linux's mount table (read from the kernel's memory,
 * never a disk); empty elsewhere, where the device check alone applies.
 */
async function mountPointsBelow(top: string): Promise<ReadonlySet<string>> {
  if (process.platform !== 'linux') return new Set();
  let text: string;
  try {
    text = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return new Set();
  }
  const prefix = top.endsWith('/') ? top : `${top}/`;
  return new Set(
    parseMountInfo(text)
      .map((mount) => mount.path)
      .filter((path) => path.startsWith(prefix)),
  );
}
