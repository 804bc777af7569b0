import { sep } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { utf8ByteLength } from '@mcpkit/core/limits';
import { type CursorCodec, INVALID_CURSOR_MESSAGE } from '@mcpkit/core/pagination';
import { throwIfAborted } from '@mcpkit/core/progress';
import type { BoundedPage } from './paging.js';
import { WalkLister } from './verified-listing.js';
import {
  byName,
  type ExcludeTest,
  locate,
  rootError,
  typeOf,
  type WalkEntry,
  type WalkPosition,
  type WalkStats,
} from './walk.js';

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
  exclude?: ExcludeTest;
  signal?: AbortSignal;
  render: (entry: WalkEntry) => string;
}

const SIGNAL_EVERY = 1024;

/**
 * One page of a single directory's entries in name order: the listing behind `list_directory` and
 * `list_directory_with_sizes`. The same verified listing, order, filter and cursors as a walk of
 * depth 1 (a cursor's position is `[name]`, so a page resumes after that name even if entries came
 * or went), read into an array and sliced: a walk hands each entry through several async
 * generators, which for a 10k-entry directory cost several times the listing itself.
 *
 * @example
 * ```ts
 * const page = await directoryPage(dir.real, { codec, list, cursor, pageSize, budgetBytes, stats, display, render });
 * ```
 */
export async function directoryPage(
  real: string,
  options: DirectoryPageOptions,
): Promise<BoundedPage<WalkEntry>> {
  const { codec, list, stats, exclude, signal } = options;
  const after = options.cursor === undefined ? undefined : afterName(codec, list, options.cursor);
  let dirents: Awaited<ReturnType<WalkLister['list']>>;
  try {
    dirents = await new WalkLister().list(real);
  } catch (error) {
    throw rootError(error, options.display);
  }
  stats.directoriesRead++;
  dirents.sort(byName);
  const prefix = real.endsWith(sep) ? real : real + sep;

  const at = after === undefined ? undefined : locate(dirents, after);
  let index = at === undefined ? 0 : at.exact ? at.index + 1 : at.index;
  const items: WalkEntry[] = [];
  const texts: string[] = [];
  let used = 0;
  let more = false;
  for (; index < dirents.length; index++) {
    if (index % SIGNAL_EVERY === 0) throwIfAborted(signal);
    const dirent = dirents[index]!;
    const name = dirent.name;
    const type = typeOf(dirent);
    const path = prefix + name;
    stats.entriesSeen++;
    if (exclude?.(name, name, type === 'directory', path, '')) continue;
    if (items.length === options.pageSize) {
      more = true;
      break;
    }
    const entry: WalkEntry = { path, relative: name, name, type, depth: 1, position: [name] };
    const text = options.render(entry);
    used += utf8ByteLength(text) + 1;
    // Always keep one entry, so a page is never empty while entries remain.
    if (used > options.budgetBytes && items.length > 0) {
      more = true;
      break;
    }
    items.push(entry);
    texts.push(text);
  }
  const last = items[items.length - 1];
  const nextCursor = more && last ? codec.encode(list, last.position) : undefined;
  return { items, texts, ...(nextCursor ? { nextCursor } : {}) };
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
