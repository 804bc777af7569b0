/**
 * The sentences a tree walk (count, delete, the copy of a move between file systems) stops with:
 * each says what stopped it, where, what was changed by then, and what to do.
 */
import { escapeControlChars } from '@mcpkit/core/roots';

/** What walks the tree. */
export type TreeAction = 'delete' | 'move';

/** Where a walk stopped: `at` and `top` are safe names for messages. */
export interface StopFacts {
  action: TreeAction;
  /** Something was already removed or committed. */
  changed: boolean;
  at: string;
  top: string;
}

/** The safe name of the entry at `relative` (`/`-separated) below the top named `top`. */
export function displayBelow(top: string, relative: string): string {
  return relative === '' ? top : `${top}/${escapeControlChars(relative)}`;
}

/** Why a walk stopped, besides a mount point below (see {@link crossingSentence}). */
export type StopReason = 'denied' | 'too-long' | 'read-only' | 'cancelled' | 'mounted';

/**
 * A directory on another device that the mount table does not list is most likely a btrfs (or
 * zfs) subvolume, which cannot be unmounted; `listed` says it is a mount point for sure, or that
 * there is no table to tell (then a mount point is the likely one).
 */
function noun(listed: boolean): string {
  return listed ? 'a mount point' : 'a mount point or a btrfs subvolume';
}

/** A mount point (or subvolume) below the top, which the walk does not cross. */
export function crossingSentence(facts: StopFacts, listed: boolean): string {
  const { action, changed, at, top } = facts;
  const what = `${noun(listed)} (another file system inside "${top}")`;
  const verb = changed || action === 'delete' ? 'delete' : 'move';
  const unmount = listed ? `unmount it${changed ? '' : ' first'}, or ` : '';
  const advice = `${unmount}${verb} what is inside it separately`;
  if (action === 'delete') {
    return changed
      ? `The delete stopped at "${at}", ${what} that a recursive delete does not cross: what it had reached is deleted and the rest is kept; ${advice}.`
      : `Nothing was deleted: "${at}" is ${what}, which a recursive delete does not cross; ${advice}.`;
  }
  return changed
    ? `The move stopped at "${at}", ${what} that a move does not cross: the copy is at the destination and what was not yet removed of "${top}" is kept; ${advice}.`
    : `Nothing was moved: "${at}" is ${what}, which a move to another file system does not copy; ${advice}.`;
}

/** The entry named itself is a mount point: deleting or moving it would empty a whole file system. */
export function topMountSentence(action: TreeAction, at: string, listed: boolean): string {
  const first = listed ? 'unmount it first, or ' : '';
  return action === 'delete'
    ? `Nothing was deleted: "${at}" is ${noun(listed)}, which delete_file does not empty; ${first}delete what is inside it instead.`
    : `Nothing was moved: "${at}" is ${noun(listed)}, which a move to another file system does not copy and empty; ${first}move what is inside it instead.`;
}

/** Any other stop, at `facts.at`. */
export function failureSentence(facts: StopFacts, reason: StopReason): string {
  const { action, changed, at, top } = facts;
  const problem = {
    denied: `permission was denied at "${at}"`,
    'too-long': `the path of "${at}" is too long for this system`,
    'read-only': `"${at}" is on a read-only file system`,
    cancelled: `the call was cancelled at "${at}", where a network or FUSE mount begins`,
    mounted: `"${at}" became a mount point while it was being ${action === 'delete' ? 'deleted' : 'moved'}`,
  }[reason];
  const fix = {
    denied: 'check the permissions there and try again',
    'too-long': 'move or delete its deepest directories first',
    'read-only': 'make that file system writable first',
    cancelled: `delete what is left of "${top}" when you no longer need it`,
    mounted: 'unmount it, or delete what is inside it separately',
  }[reason];
  if (action === 'delete') {
    return changed
      ? `The delete stopped because ${problem}: what it had reached is deleted and the rest is kept; ${fix}.`
      : `Nothing was deleted: ${problem}; ${fix}.`;
  }
  return changed
    ? `The move stopped because ${problem}: the copy is at the destination and what was not yet removed of "${top}" is kept; ${fix}.`
    : `Nothing was moved: ${problem}; ${fix}.`;
}

/** The refusal of a special file, which a move between file systems cannot copy. */
export function specialFileSentence(display: string): string {
  return `Nothing was moved: "${display}" is a special file (a FIFO, socket or device), which a move to another file system cannot copy; move or delete it first.`;
}

/** The copy is in place, but the source is no longer the entry that was copied, so it stays. */
export function replacedSentence(source: string, target: string): string {
  return `The copy of "${source}" is in place at "${target}", but "${source}" was not removed: it was moved away or replaced while it was being copied; check both and delete what you do not need.`;
}
