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

const SIGNAL_EVERY = 1024;
const MAX_PREALLOCATED = 100_000;
// A line of plain ASCII takes one UTF-8 byte per character, and most names are ASCII: then the
// line's length is its byte count, found without flattening and encoding the line.
const NON_ASCII = /[^\u0000-\u007f]/;

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
  const { codec, list, stats, exclude, signal, render } = options;
  const after = options.cursor === undefined ? undefined : afterName(codec, list, options.cursor);
  let dirents: Dirent[];
  try {
    dirents = await listDirectory(real);
  } catch (error) {
    throw rootError(error, options.display);
  }
  throwIfAborted(signal);
  stats.directoriesRead++;
  dirents.sort(byName);

  const at = after === undefined ? undefined : locate(dirents, after);
  let index = at === undefined ? 0 : at.exact ? at.index + 1 : at.index;
  // Sized once for the most the page can hold: pushing grows an array step by step, copying it
  // each time, which for a 10k-entry page costs more memory than the entries themselves.
  // (Capped: a huge array made up front would be sparse, and a sparse array is slow.)
  const capacity = Math.max(0, Math.min(options.pageSize, dirents.length - index, MAX_PREALLOCATED));
  const entries = new Array<Dirent>(capacity);
  const texts = new Array<string>(capacity);
  let count = 0;
  let used = 0;
  let more = false;
  for (; index < dirents.length; index++) {
    if (index % SIGNAL_EVERY === 0) throwIfAborted(signal);
    const dirent = dirents[index]!;
    const name = dirent.name;
    const type = typeOf(dirent);
    stats.entriesSeen++;
    if (exclude?.(name, type === 'directory')) continue;
    if (count === options.pageSize) {
      more = true;
      break;
    }
    const text = render(name, type);
    used += (NON_ASCII.test(name) ? utf8ByteLength(text) : text.length) + 1;
    // Always keep one entry, so a page is never empty while entries remain.
    if (used > options.budgetBytes && count > 0) {
      more = true;
      break;
    }
    entries[count] = dirent;
    texts[count] = text;
    count++;
  }
  entries.length = count;
  texts.length = count;
  const last = entries[count - 1];
  const position: WalkPosition | undefined = last === undefined ? undefined : [last.name];
  const nextCursor = more && position ? codec.encode(list, position) : undefined;
  return { entries, texts, ...(nextCursor ? { nextCursor } : {}) };
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
