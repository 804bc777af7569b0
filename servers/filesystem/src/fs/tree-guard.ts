import type { Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isUserError, UserError } from '@mcpkit/core/errors';
import { CancelledError, throwIfAborted } from '@mcpkit/core/progress';
import { parseMountInfo, type StallScope, slowPaths, stallScopeOf } from '@mcpkit/core/roots';
import { codeOf } from './errno-code.js';
import {
  crossingSentence,
  displayBelow,
  failureSentence,
  type StopReason,
  type TreeAction,
  topMountSentence,
} from './tree-messages.js';

/** Options of {@link TreeGuard.open}. */
export interface TreeGuardOptions {
  /** The call's signal: checked before every entry, and its stall scope joined on a slow mount. */
  signal?: AbortSignal | undefined;
  action: TreeAction;
  /** The top's device (its `lstat`), when the caller has it; otherwise the top's own check sets it. */
  dev?: number;
}

/** The file errors a walk explains with a sentence of its own; any other error is left as it is. */
const EXPLAINED = new Map<string, StopReason>([
  ['EACCES', 'denied'],
  ['EPERM', 'denied'],
  ['ENAMETOOLONG', 'too-long'],
  ['EROFS', 'read-only'],
]);

/** Steps between two renewals of the call's deadline: each one re-arms a timer. */
const ALIVE_EVERY = 16;

/** The mount table's view of a tree: `undefined` where there is no table to read (not Linux). */
interface MountsAt {
  below: ReadonlySet<string>;
  top: boolean;
}

/** A stall guard's own reason for giving a call up: a sentence, not the client's cancel. */
function isStall(reason: unknown): boolean {
  return isUserError(reason) && !(reason instanceof CancelledError);
}

/**
 * What counting, deleting or copying a tree checks at each entry before touching it. Three rules:
 *
 * - **A slow mount below the top** (a share mounted inside the directory) joins the call's stall
 *   scope before the first file call on it, so a stalled mount ends the call with the guard's
 *   sentence at its deadline instead of holding it; every step done renews that deadline, so a
 *   big tree that is moving is not taken for a stalled one.
 * - **A given-up or cancelled call stops** at the next entry: nothing more is changed. Once a
 *   move has put its copy in place ({@link commit}), only the stall deadline still stops it: a
 *   cancel then would leave the tree twice, half of it in the old place.
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
  /** A cancel came after {@link commit} and was not obeyed. */
  cancelIgnored = false;
  readonly #top: { real: string; display: string };
  readonly #action: TreeAction;
  readonly #scope: StallScope | undefined;
  readonly #mounts: MountsAt | undefined;
  #dev: number | undefined;
  #committed = false;
  #entered = false;
  #steps = 0;
  /** The last entry entered (from the top), named when a file call there fails. */
  #at = '';

  private constructor(
    top: { real: string; display: string },
    options: TreeGuardOptions,
    mounts: MountsAt | undefined,
  ) {
    this.#top = top;
    this.signal = options.signal;
    this.#action = options.action;
    this.#dev = options.dev;
    this.#scope = stallScopeOf(options.signal);
    this.#mounts = mounts;
  }

  /** A guard for the tree at `top.real` (a checked real path), named `top.display` in messages. */
  static async open(top: { real: string; display: string }, options: TreeGuardOptions): Promise<TreeGuard> {
    return new TreeGuard(top, options, await mountsAt(top.real));
  }

  /** The safe name of the entry at `relative` (`/`-separated, from the top) for messages. */
  display(relative: string): string {
    return displayBelow(this.#top.display, relative);
  }

  /**
   * Call before the first file call on the entry at `real` (`relative` from the top): stops a call
   * that was given up or cancelled, and puts a slow mount under the call's deadline and slot.
   */
  async enter(real: string, relative: string): Promise<void> {
    this.#at = relative;
    this.check();
    if (this.#entered || !this.#scope || !slowPaths.isSlow(real)) return;
    // A cancel obeyed no more cannot wait for a slot either: stop where the slow mount begins.
    if (this.signal?.aborted) throw new UserError(failureSentence(this.#facts(relative), 'cancelled'));
    this.#entered = true;
    await this.#scope.enter(real, this.display(relative));
  }

  /** Throws when the call was given up or cancelled; after {@link commit}, only when given up. */
  check(): void {
    if (!this.signal?.aborted) return;
    if (this.#committed && !isStall(this.signal.reason)) {
      this.cancelIgnored = true;
      return;
    }
    throwIfAborted(this.signal);
  }

  /** The move's copy is in place: from now on the source is removed whatever the client cancels. */
  commit(): void {
    this.#committed = true;
    this.changed = true;
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
    const listed = this.#mounts?.below.has(real) ?? false;
    if (stats.dev === this.#dev && !listed) return;
    throw this.#crossing(relative, listed);
  }

  /**
   * Refuses at once when the mount table shows a mount point anywhere below the top: nothing has
   * to be walked (or touched, on a mount that may be stalled) to know the walk would stop there.
   */
  refuseListedMounts(): void {
    const first = [...(this.#mounts?.below ?? [])].sort()[0];
    if (first !== undefined) throw this.#crossing(first.slice(this.#top.real.length + 1), true);
  }

  /**
   * Refuses when the top itself is a mount point: in the mount table, or on another device than
   * `parent` (the `stat` of the directory that holds it). Emptying a mounted disk is not deleting
   * or moving a directory, and its mount point could not go anyway.
   */
  refuseMountedTop(parent: Stats): void {
    if (!this.#mounts?.top && (this.#dev === undefined || this.#dev === parent.dev)) return;
    throw new UserError(topMountSentence(this.#action, this.display(''), this.#listed(this.#mounts?.top)));
  }

  /**
   * Stops at the directory at `relative` that became a mount point after it was checked (its
   * removal answered EBUSY).
   */
  mountedMeanwhile(relative: string): UserError {
    return new UserError(failureSentence(this.#facts(relative), 'mounted'));
  }

  /**
   * The sentence for a file error met at the last entry entered: permission denied, or a path too
   * long for the system. Anything else (and a sentence already) is returned as it is.
   */
  explain(error: unknown): unknown {
    if (isUserError(error)) return error;
    const reason = EXPLAINED.get(codeOf(error) ?? '');
    if (reason === undefined) return error;
    return new UserError(failureSentence(this.#facts(this.#at), reason));
  }

  /** Whether a device change reads as a mount point: listed, or no table to tell. */
  #listed(inTable: boolean | undefined): boolean {
    return inTable === true || this.#mounts === undefined;
  }

  #facts(relative: string) {
    return {
      action: this.#action,
      changed: this.changed,
      at: this.display(relative),
      top: this.#top.display,
    };
  }

  #crossing(relative: string, listed: boolean): UserError {
    return new UserError(crossingSentence(this.#facts(relative), this.#listed(listed)));
  }
}

/**
 * The mount points at and strictly below `top`, from Linux's mount table (read from the kernel's
 * memory, never a disk); `undefined` elsewhere, where the device check alone applies.
 */
async function mountsAt(top: string): Promise<MountsAt | undefined> {
  if (process.platform !== 'linux') return undefined;
  let text: string;
  try {
    text = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return undefined;
  }
  const prefix = top.endsWith('/') ? top : `${top}/`;
  const paths = parseMountInfo(text).map((mount) => mount.path);
  return { below: new Set(paths.filter((path) => path.startsWith(prefix))), top: paths.includes(top) };
}
