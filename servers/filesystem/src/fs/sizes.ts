import type { Dirent } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { sep } from 'node:path';
import { throwIfAborted } from '@mcpkit/core/progress';
import { slowPaths } from '@mcpkit/core/roots';
import { typeOf } from './walk.js';

/** lstat calls in flight at once: enough to keep the thread pool busy, few enough to stay polite. */
const PARALLEL = 64;

/**
 * The sizes of entries of one directory, in their order, with `lstat` (never following a link: a
 * link's target may be outside the roots, and its size is not the link's business). Regular files
 * get their bytes; directories, links and special files get `undefined`, as in the official
 * listing, and so does a file that vanished meanwhile.
 *
 * @example
 * ```ts
 * const sizes = await sizesOf('/srv/app', page.entries); // [12, undefined] for a.txt and lib/
 * ```
 */
export async function sizesOf(
  dir: string,
  entries: readonly Dirent[],
  signal?: AbortSignal,
): Promise<(number | undefined)[]> {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const sizes = new Array<number | undefined>(entries.length).fill(undefined);
  // A fixed number of workers each take the next file: the thread pool stays busy without one
  // promise per entry.
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= entries.length) return;
      if (!entries[i]!.isFile()) continue;
      throwIfAborted(signal);
      const info = await lstat(prefix + entries[i]!.name).catch(() => undefined);
      if (info) sizes[i] = info.size;
    }
  };
  // On a network or FUSE mount each lstat in flight may hold a thread-pool thread for as long as
  // the mount stalls: one at a time there, so the pool keeps threads for everything else.
  const parallel = slowPaths.isSlow(dir) ? 1 : PARALLEL;
  await Promise.all(Array.from({ length: Math.min(parallel, entries.length) }, worker));
  throwIfAborted(signal);
  return sizes;
}

/** Files, directories and bytes of a listing, for its summary line. */
export function totals(
  entries: readonly Dirent[],
  sizes: readonly (number | undefined)[],
): { files: number; directories: number; bytes: number } {
  let files = 0;
  let directories = 0;
  let bytes = 0;
  for (let i = 0; i < entries.length; i++) {
    const type = typeOf(entries[i]!);
    if (type === 'directory') directories++;
    else if (type === 'file') {
      files++;
      bytes += sizes[i] ?? 0;
    }
  }
  return { files, directories, bytes };
}
