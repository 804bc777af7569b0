import type { Dir } from 'node:fs';
import { lstat, open, opendir } from 'node:fs/promises';
import { checkpoint } from '@mcpkit/core/progress';
import { assertOpenedAtSync, changedError, DIR_FLAGS, hasProcFd } from './pinned.js';
import type { TreeGuard } from './tree-guard.js';

/**
 * Counts the entries under the directory `top` (a checked real path): files, directories and
 * links at every depth, the directory itself not included. It stops once the count passes `cap`,
 * so a huge tree cannot stall the question it is counted for. Links are counted, never followed.
 * Each directory goes through `guard` first: a slow mount below joins the call's deadline, a
 * mount point stops the count with the guard's sentence, and a given-up call stops.
 *
 * @example
 * ```ts
 * const guard = await TreeGuard.open(entry, { signal, action: 'delete', dev: entry.stats.dev });
 * const n = await countEntries(entry.real, 100_000, guard); // 100_001 means "more than 100000"
 * ```
 */
export async function countEntries(top: string, cap: number, guard: TreeGuard): Promise<number> {
  const tick = checkpoint(guard.signal);
  let count = 0;
  // Paths from the top: the real path is the top's plus this, and so is the name in messages.
  const pending = [''];
  while (pending.length > 0 && count <= cap) {
    const relative = pending.pop()!;
    const real = relative === '' ? top : `${top}/${relative}`;
    await guard.enter(real, relative);
    if (relative !== '') {
      const stats = await lstat(real);
      // Replaced by a file or a link since it was listed: counted already, not entered.
      if (!stats.isDirectory()) continue;
      guard.checkDirectory(stats, real, relative);
    }
    for await (const dirent of await openDir(real, guard.display(relative))) {
      await tick();
      guard.step();
      count++;
      if (count > cap) break;
      // Dirent types come from the directory itself, so a link to a directory is not a directory here.
      if (dirent.isDirectory()) pending.push(relative === '' ? dirent.name : `${relative}/${dirent.name}`);
    }
  }
  return count;
}

/**
 * Opens the directory at `real` for reading, itself and not a link put in its place, and (on
 * Linux) only if it still is at that path: a directory on the way swapped for a link cannot lead
 * the count somewhere else. The listing streams, so a directory of millions of entries is not
 * read whole for a count that stops at the cap.
 */
async function openDir(real: string, display: string): Promise<Dir> {
  if (!hasProcFd()) return opendir(real);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ELOOP' || code === 'ENOTDIR' ? changedError(display) : error;
  }
  try {
    // Reading a descriptor's path back asks the kernel, never the file system.
    assertOpenedAtSync(handle.fd, real, display);
    return await opendir(`/proc/self/fd/${handle.fd}`);
  } finally {
    await handle.close();
  }
}
