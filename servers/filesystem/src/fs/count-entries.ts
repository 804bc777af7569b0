import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkpoint } from '@mcpkit/core/progress';

/**
 * Counts the entries under a directory (files, directories and links at every depth, the directory
 * itself not included), stopping once the count passes `cap` so a huge tree cannot stall the
 * question it is counted for. Links are counted, never followed.
 *
 * @example
 * ```ts
 * const n = await countEntries('/srv/app/build', 100_000); // 100_001 means "more than 100000"
 * ```
 */
export async function countEntries(dir: string, cap: number, signal?: AbortSignal): Promise<number> {
  const tick = checkpoint(signal);
  let count = 0;
  const pending = [dir];
  while (pending.length > 0 && count <= cap) {
    const current = pending.pop()!;
    for await (const dirent of await opendir(current)) {
      await tick();
      count++;
      if (count > cap) break;
      // Dirent types come from the directory itself, so a link to a directory is not a directory here.
      if (dirent.isDirectory()) pending.push(join(current, dirent.name));
    }
  }
  return count;
}
