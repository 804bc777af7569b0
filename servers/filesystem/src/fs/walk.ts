import type { Dirent } from 'node:fs';
import { sep } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { checkpoint, throwIfAborted } from '@mcpkit/core/progress';
import { GitignoreStack } from './gitignore.js';
import { listDirectory, WalkLister } from './verified-listing.js';

/** What an entry is, seen without following it: a symbolic link is a `symlink`, whatever it points to. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/**
 * Where a walk stands: one key per level from the root down to an entry. A key is the entry's name,
 * so a resumed walk lands right even when entries were added or removed meanwhile; for very long
 * paths it is the entry's index in its sorted directory instead, to keep cursors small.
 */
export type WalkPosition = (string | number)[];

/** One entry of a walk. */
export interface WalkEntry {
  /** Absolute path: the walk root (a real path) joined with `relative`. */
  path: string;
  /** Path from the walk root, `/`-separated whatever the platform. */
  relative: string;
  name: string;
  type: EntryType;
  /** 1 for the root's own entries. */
  depth: number;
  /** Pass as `from` to resume the walk right after this entry. */
  position: WalkPosition;
}

/** Counters a caller can watch while a walk runs (progress) and read after it (notes, tests). */
export interface WalkStats {
  /** Directory listings read, the resumed path included. */
  directoriesRead: number;
  /** Entries looked at, excluded ones included. */
  entriesSeen: number;
  /** Directories skipped because they could not be read (permission denied, vanished). */
  unreadable: number;
}

/**
 * Decides, from the path relative to the walk root, that an entry is left out (and not entered).
 * `parent` is the relative path of the entry's directory: the same string for every entry of one
 * directory, so a test can do its per-directory work once.
 */
export type ExcludeTest = (
  relative: string,
  name: string,
  isDirectory: boolean,
  path: string,
  parent: string,
) => boolean;

/** Decides from an entry's parts (path from the walk root, name, type) whether the walk yields it. */
export type EntryFilter = (relative: string, name: string, type: EntryType) => boolean;

/** What to walk and how: depth, filters, where to resume, cancellation. */
export interface WalkOptions {
  /** Entries deeper than this are not listed; directories at this depth are not entered. Default: no limit. */
  maxDepth?: number;
  exclude?: ExcludeTest;
  /** Entries it rejects are not yielded (nor built) but still entered: a search's pattern. */
  match?: EntryFilter;
  /**
   * Honour .gitignore files: those met on the way down, scoped to their directory, and those above
   * the root up to `boundary` (never above it). The `.git` directory is skipped too.
   */
  gitignore?: { boundary: string };
  /** Resume after this entry (or at it, with `inclusive`). */
  from?: WalkPosition;
  inclusive?: boolean;
  signal?: AbortSignal;
  stats?: WalkStats;
  /** Name of the root for error messages: never a host path. */
  display?: string;
}

/** Fresh counters. */
export function walkStats(): WalkStats {
  return { directoriesRead: 0, entriesSeen: 0, unreadable: 0 };
}

interface Frame {
  /** Absolute path with a trailing separator, ready to have a name appended. */
  prefix: string;
  relative: string;
  name: string;
  depth: number;
  entries: Dirent[];
  /** The next entry to look at. */
  index: number;
  ignore: GitignoreStack | undefined;
  parent: Frame | undefined;
  /** This directory's index among its parent's sorted entries. */
  indexInParent: number;
  /** The next entry to consider for reading ahead. */
  ahead: number;
}

/** Beyond this many characters of names, positions switch to indices (cursors stay well under 4 KiB). */
const MAX_NAMED_POSITION = 1024;

/**
 * Listings read ahead once the walk lists through the thread pool (see `WalkLister`), to overlap
 * the waits: real directories below the root only; one that turns out excluded is dropped unseen.
 */
const READ_AHEAD = 8;

/** Entries between two checkpoints; between them only the signal is looked at (no await per entry). */
const CHECK_EVERY = 64;

// Code-unit order, not localeCompare: the same on every machine and locale, so a position taken on
// one call means the same place on the next.
export const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function typeOf(entry: Dirent): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  return 'other';
}

/**
 * An entry whose position is worked out only when asked for: a tree never asks, and a search asks
 * only for the entries it returns. The frame chain it reads (names, indices in parents: immutable)
 * is let go once the position is built, or a page of thousands of entries would hold every listing
 * of the walk, for the garbage collector to copy again and again.
 */
class Entry implements WalkEntry {
  #position: WalkPosition | undefined;
  #frame: Frame | undefined;
  readonly #index: number;

  constructor(
    readonly path: string,
    readonly relative: string,
    readonly name: string,
    readonly type: EntryType,
    readonly depth: number,
    frame: Frame,
    index: number,
  ) {
    this.#frame = frame;
    this.#index = index;
  }

  get position(): WalkPosition {
    if (!this.#position) {
      this.#position = positionOf(this.#frame!, this.#index);
      this.#frame = undefined;
    }
    return this.#position;
  }
}

/**
 * Walks a directory tree depth-first in name order, one `readdir` per directory and no `stat` per
 * entry. Symbolic links are reported and never followed, so a walk started at a real path inside
 * the roots stays inside them without checking each entry. Directories that cannot be read are
 * counted in `stats.unreadable` and skipped; only the root failing is an error.
 *
 * @example
 * ```ts
 * for await (const e of walk(root, { maxDepth: 2, signal })) console.log(e.relative, e.type);
 * const rest = walk(root, { from: last.position }); // picks up right after `last`
 * ```
 */
export async function* walk(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const { exclude, match, signal } = options;
  const stats = options.stats ?? walkStats();
  // Awaiting once per entry would cost more than the walk itself; the signal is still read per entry.
  const tick = checkpoint(signal, Math.max(1, 256 / CHECK_EVERY));

  const lister = new WalkLister(root, signal);
  const pending = new Map<string, Promise<Dirent[]>>();
  const list = (path: string): Dirent[] | Promise<Dirent[]> => {
    const early = pending.get(path);
    pending.delete(path);
    return early ?? lister.list(path);
  };
  // Starts reading the next directories of `frame` that the walk will enter (only once listings
  // go through the thread pool: inline ones have no wait to overlap).
  const readAhead = (frame: Frame): void => {
    if (lister.sync || frame.depth + 1 >= maxDepth) return;
    for (; frame.ahead < frame.entries.length && pending.size < READ_AHEAD; frame.ahead++) {
      const entry = frame.entries[frame.ahead]!;
      if (frame.ahead < frame.index || !entry.isDirectory()) continue;
      const path = frame.prefix + entry.name;
      if (!lister.mayReadAhead(path)) continue;
      const early = listDirectory(path);
      // A failure counts only if the walk gets there (then `list` hands over this same promise).
      early.catch(() => {});
      pending.set(path, early);
    }
  };

  const open = async (path: string, name: string, parent: Frame | undefined): Promise<Frame | undefined> => {
    let entries: Dirent[];
    try {
      entries = await list(path);
    } catch (error) {
      if (!parent) throw rootError(error, options.display ?? 'the directory');
      stats.unreadable++;
      return undefined;
    }
    stats.directoriesRead++;
    entries.sort(byName);
    const relative = !parent ? '' : parent.relative === '' ? name : `${parent.relative}/${name}`;
    const inherited = parent ? parent.ignore : ignoreAbove;
    return {
      prefix: path.endsWith(sep) ? path : path + sep,
      relative,
      name,
      depth: parent ? parent.depth + 1 : 0,
      entries,
      index: 0,
      ignore: inherited && (await inherited.enter(path, relative, entries)),
      parent,
      indexInParent: parent ? parent.index - 1 : 0,
      ahead: 0,
    };
  };

  const ignoreAbove = options.gitignore
    ? await GitignoreStack.above(root, options.gitignore.boundary)
    : undefined;
  const first = await open(root, '', undefined);
  if (!first) return;
  const stack: Frame[] = [first];
  // Enters the entry just taken from `frame` (its index is `frame.index - 1`).
  const descend = async (frame: Frame, entry: Dirent): Promise<void> => {
    if (frame.depth + 1 >= maxDepth) return;
    readAhead(frame);
    const child = await open(frame.prefix + entry.name, entry.name, frame);
    if (!child) return;
    stack.push(child);
    readAhead(child);
  };
  if (options.from) await resume(stack, options.from, options.inclusive ?? false, descend);

  let seen = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const dirent = frame.entries[frame.index++];
    if (dirent === undefined) {
      stack.pop();
      continue;
    }
    if (++seen % CHECK_EVERY === 0) await tick();
    else throwIfAborted(signal);
    stats.entriesSeen++;
    const name = dirent.name;
    const relative = frame.relative === '' ? name : `${frame.relative}/${name}`;
    const type = typeOf(dirent);
    const isDirectory = type === 'directory';
    const path = frame.prefix + name;
    if (
      exclude?.(relative, name, isDirectory, path, frame.relative) ||
      frame.ignore?.ignores(relative, name, isDirectory)
    ) {
      if (isDirectory) pending.delete(path);
      continue;
    }
    if (!match || match(relative, name, type))
      yield new Entry(path, relative, name, type, frame.depth + 1, frame, frame.index - 1);
    if (isDirectory) await descend(frame, dirent);
  }
}

/** The position of entry `index` of `frame`: names from the root down, or indices when long. */
function positionOf(frame: Frame, index: number): WalkPosition {
  const entryName = frame.entries[index]!.name;
  let length = entryName.length;
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) length += f.name.length + 1;
  const named = length <= MAX_NAMED_POSITION;
  const position: WalkPosition = [named ? entryName : index];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent)
    position.push(named ? f.name : f.indexInParent);
  return position.reverse();
}

/**
 * Rebuilds the stack for a position: re-lists only the directories on the path to it, and finds
 * each key by binary search. An ancestor that vanished resumes at the entry that now follows it.
 */
async function resume(
  stack: Frame[],
  from: WalkPosition,
  inclusive: boolean,
  descend: (frame: Frame, entry: Dirent) => Promise<void>,
): Promise<void> {
  for (const [level, key] of from.entries()) {
    const frame = stack[stack.length - 1]!;
    const { index, exact } = locate(frame.entries, key);
    const entry = exact ? frame.entries[index] : undefined;
    const last = level === from.length - 1;
    if (last && inclusive) {
      frame.index = index;
      return;
    }
    frame.index = exact ? index + 1 : index;
    // A Dirent has one type: a symlink to a directory is not isDirectory(), so it is never entered.
    if (!entry?.isDirectory()) return;
    const depth = stack.length;
    await descend(frame, entry);
    // Not entered (depth limit, unreadable): carry on after it at this level.
    if (stack.length === depth) return;
  }
}

/** Where `key` (a name, or an index) falls in a name-sorted listing, and whether it is there. */
export function locate(entries: readonly Dirent[], key: string | number): { index: number; exact: boolean } {
  if (typeof key === 'number') {
    const index = Math.min(Math.max(0, Math.trunc(key)), entries.length);
    return { index, exact: index < entries.length };
  }
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid]!.name < key) low = mid + 1;
    else high = mid;
  }
  return { index: low, exact: entries[low]?.name === key };
}

/** True for a value that can be a {@link WalkPosition} (a cursor's payload is checked with it). */
export function isWalkPosition(value: unknown): value is WalkPosition {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 4096 &&
    value.every((key) => typeof key === 'string' || (typeof key === 'number' && Number.isSafeInteger(key)))
  );
}

/** What a failure to list the walk's own root means, in one sentence. */
export function rootError(error: unknown, display: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR')
    return new UserError(`"${display}" is not a directory; pass a directory to list or search.`);
  if (code === 'ENOENT') return new UserError(`"${display}" does not exist; check the path and try again.`);
  if (code === 'EACCES' || code === 'EPERM')
    return new UserError(
      `"${display}" cannot be read: permission denied; choose a directory this server can read.`,
    );
  return error instanceof Error ? error : new Error(String(error));
}
