import type { Dirent } from 'node:fs';
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import { type CursorCodec, INVALID_CURSOR_MESSAGE } from '@mcpkit/core/pagination';
import { throwIfAborted } from '@mcpkit/core/progress';
import { listDirectory } from './verified-listing.js';
import {
  byName,
  type EntryType,
  locate,
  rootError,
  typeOf,
  type WalkPosition,
  type WalkStats,
} from './walk.js';

/** Leaves an entry of the listed directory out of the page (a secret, say); counted by the caller. */
export type NameFilter = (name: string, isDirectory: boolean) => boolean;

/** How {@link directoryPage} reads and cuts one page of a single directory. */
export interface DirectoryPageOptions {
  codec: CursorCodec;
  list: string;
  cursor: string | undefined;
  pageSize: number;
  /** Bytes the rendered entries may take together (see `pageBudget`). */
  budgetBytes: number;
  stats: WalkStats;
  /** The directory as the caller named it, for errors. */
  display: string;
  exclude?: NameFilter;
  /**
   * Names that need a closer look: every name `exclude` could refuse, and every name with a
   * character outside ASCII. A name it does not match is kept without asking `exclude`, and its
   * line is measured by its length. Without it, `exclude` is asked about every name.
   */
  closerLook?: RegExp;
  signal?: AbortSignal;
  /**
   * The text line of one entry. Anything it adds around the name must be ASCII: the byte budget
   * measures a line by its length unless the name itself holds other characters.
   */
  render: (name: string, type: EntryType) => string;
}

/** One page: the entries shown, in name order, and their text lines. */
export interface DirectoryPage {
  /** The listing's own entries: `name`, and the type through `typeOf`. */
  entries: Dirent[];
  /** `render` of each entry. */
  texts: string[];
  nextCursor?: string;
}

const MAX_PREALLOCATED = 100_000;
/** A character outside ASCII, as a regular-expression class: a line holding one takes more bytes. */
export const NON_ASCII_CHAR = '[^\\u0000-\\u007f]';
// A line of plain ASCII takes one UTF-8 byte per character, and most names are ASCII: then the
// line's length is its byte count, found without flattening and encoding the line.
const NON_ASCII = new RegExp(NON_ASCII_CHAR);
/** A closer-look test that matches every name: each is asked about (see `closerLook`). */
export const EVERY_NAME = /(?:)/;

/**
 * One page of a single directory's entries in name order: the listing behind `list_directory` and
 * `list_directory_with_sizes`. The same verified listing, order and cursors as a walk of depth 1
 * (a cursor's position is `[name]`, so a page resumes after that name even if entries came or
 * went). The listing is read through the thread pool, like the official server's: a directory of
 * 10k entries takes milliseconds to read, which would otherwise hold up every other call, and
 * several listings in flight then use more than one core.
 *
 * @example
 * ```ts
 * const page = await directoryPage(dir.real, { codec, list, cursor, pageSize, budgetBytes, stats, display, render });
 * ```
 */
export async function directoryPage(real: string, options: DirectoryPageOptions): Promise<DirectoryPage> {
  const { codec, list } = options;
  const after = options.cursor === undefined ? undefined : afterName(codec, list, options.cursor);
  let dirents: Dirent[];
  try {
    dirents = await listDirectory(real);
  } catch (error) {
    throw rootError(error, options.display);
  }
  // The one check that matters: from here to the end the page is cut without yielding, so a
  // cancel cannot arrive in between. (Checking inside the loop also cost a deoptimization per call:
  // each call's signal is a new composite object the compiled loop had not seen.)
  throwIfAborted(options.signal);
  options.stats.directoriesRead++;
  dirents.sort(byName);
  const at = after === undefined ? undefined : locate(dirents, after);
  const page = cutPage(dirents, at === undefined ? 0 : at.exact ? at.index + 1 : at.index, options);
  const last = page.entries[page.entries.length - 1];
  const position: WalkPosition | undefined = last === undefined ? undefined : [last.name];
  const nextCursor = page.more && position ? codec.encode(list, position) : undefined;
  return { entries: page.entries, texts: page.texts, ...(nextCursor ? { nextCursor } : {}) };
}

/**
 * The entries from `start` on that fit the page, by count and by bytes. A function of its own, and
 * synchronous, so the compiler optimizes this loop alone and keeps it from call to call: compiled
 * inside the async function, every code path it had not yet seen threw the optimized code away
 * again, and each call of a listing paid for recompiling it.
 */
function cutPage(
  dirents: Dirent[],
  start: number,
  options: DirectoryPageOptions,
): { entries: Dirent[]; texts: string[]; more: boolean } {
  const { exclude, render, pageSize, budgetBytes } = options;
  // With an exclude test and nothing to say which names it may refuse, it is asked about each.
  const look = options.closerLook ?? (exclude ? EVERY_NAME : NON_ASCII);
  // Sized once for the most the page can hold: pushing grows an array step by step, copying it
  // each time, which for a 10k-entry page costs more memory than the entries themselves.
  // (Capped: a huge array made up front would be sparse, and a sparse array is slow.)
  const capacity = Math.max(0, Math.min(pageSize, dirents.length - start, MAX_PREALLOCATED));
  const entries = new Array<Dirent>(capacity);
  const texts = new Array<string>(capacity);
  let count = 0;
  let used = 0;
  let more = false;
  let index = start;
  for (; index < dirents.length; index++) {
    const dirent = dirents[index]!;
    const name = dirent.name;
    const type = typeOf(dirent);
    // One test per name: most names need neither the filter nor a UTF-8 measure.
    const plain = !look.test(name);
    if (!plain && exclude?.(name, type === 'directory')) continue;
    if (count === pageSize) {
      more = true;
      break;
    }
    const text = render(name, type);
    used += (plain ? text.length : utf8ByteLength(text)) + 1;
    // Always keep one entry, so a page is never empty while entries remain.
    if (used > budgetBytes && count > 0) {
      more = true;
      break;
    }
    entries[count] = dirent;
    texts[count] = text;
    count++;
  }
  options.stats.entriesSeen += index - start + (more ? 1 : 0);
  entries.length = count;
  texts.length = count;
  return { entries, texts, more };
}

/** The name a cursor resumes after; a cursor of another shape (or forged) is the caller's mistake. */
function afterName(codec: CursorCodec, list: string, cursor: string): string {
  let position: WalkPosition;
  try {
    position = codec.decode<WalkPosition>(list, cursor);
  } catch {
    throw new UserError(INVALID_CURSOR_MESSAGE);
  }
  const [name, ...rest] = Array.isArray(position) ? position : [];
  if (typeof name !== 'string' || rest.length > 0) throw new UserError(INVALID_CURSOR_MESSAGE);
  return name;
}
