import { lstat } from 'node:fs/promises';
import { throwIfAborted } from '@mcpkit/core/progress';
import type { WalkEntry } from './walk.js';

/** lstat calls in flight at once: enough to keep the thread pool busy, few enough to stay polite. */
const PARALLEL = 64;

/** An entry with its size: bytes for a regular file, `undefined` for everything else. */
export type SizedEntry = WalkEntry & { size?: number };

/**
 * Adds sizes to entries with `lstat` (never following a link: a link's target may be outside the
 * roots, and its size is not the link's business). Directories, links and special files get no
 * size, as in the official listing; a file that vanished meanwhile gets none either.
 */
export async function withSizes(entries: readonly WalkEntry[], signal?: AbortSignal): Promise<SizedEntry[]> {
  const out: SizedEntry[] = [];
  for (let start = 0; start < entries.length; start += PARALLEL) {
    throwIfAborted(signal);
    const batch = entries.slice(start, start + PARALLEL);
    const sized = await Promise.all(
      batch.map(async (entry): Promise<SizedEntry> => {
        const sized: SizedEntry = entry;
        if (entry.type !== 'file') return sized;
        const info = await lstat(entry.path).catch(() => undefined);
        // Set on the entry itself: a spread copy would drop its lazily computed position.
        if (info) sized.size = info.size;
        return sized;
      }),
    );
    out.push(...sized);
  }
  return out;
}

/** Files, directories and bytes of a listing, for its summary line. */
export function totals(entries: readonly SizedEntry[]): {
  files: number;
  directories: number;
  bytes: number;
} {
  let files = 0;
  let directories = 0;
  let bytes = 0;
  for (const entry of entries) {
    if (entry.type === 'directory') directories++;
    else if (entry.type === 'file') {
      files++;
      bytes += entry.size ?? 0;
    }
  }
  return { files, directories, bytes };
}
