import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { withParentDir } from './pinned.js';

export interface AtomicWriteOptions {
  /** File mode for a new file; an existing file keeps its own. Default 0o644 (less the umask). */
  mode?: number;
  signal?: AbortSignal;
  /** Safe name of the file for errors; default its base name. */
  display?: string;
}

/**
 * The permission bits a rewritten file keeps: setuid and setgid are dropped, as the kernel drops
 * them when anyone writes to such a file; new content must not run with the owner's rights.
 */
export const KEPT_MODE_BITS = 0o777;

/**
 * Writes a whole file atomically: a temporary file with a random name beside the target, created
 * with O_EXCL (a planted file or link with that name makes it fail, never redirects it), written,
 * synced, given the target's mode, then renamed over the target. A reader sees the old content or
 * the new, never half; a crash leaves the old file. Renaming also replaces the directory entry, so
 * a hard link to a file outside the roots is broken rather than written through, and a symlink at
 * the target is replaced, not followed. The directory is pinned (see `pinned.ts`), so one swapped
 * for a link after the path was checked fails the write instead of redirecting it.
 *
 * @example
 * ```ts
 * await atomicWrite(target.real, text);
 * ```
 */
export async function atomicWrite(real: string, data: string | Uint8Array, options: AtomicWriteOptions = {}) {
  const display = options.display ?? basename(real);
  await withParentDir(real, display, async (dir, name) => {
    const target = dir.entry(name);
    let mode = options.mode ?? 0o644;
    try {
      const existing = await lstat(target);
      if (existing.isDirectory())
        throw new UserError(`"${display}" is a directory, so it cannot be written as a file.`);
      if (existing.isFile()) mode = existing.mode & KEPT_MODE_BITS;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    options.signal?.throwIfAborted();
    const temp = dir.entry(`.${name}.${randomBytes(8).toString('hex')}.tmp`);
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      mode,
    );
    try {
      try {
        await handle.writeFile(data);
        await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      options.signal?.throwIfAborted();
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  });
}
