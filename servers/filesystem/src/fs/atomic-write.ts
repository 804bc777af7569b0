import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';

export interface AtomicWriteOptions {
  /** File mode for a new file; an existing file keeps its own. Default 0o644 (less the umask). */
  mode?: number;
  signal?: AbortSignal;
}

/**
 * Writes a whole file atomically: a temporary file with a random name beside the target, created
 * with O_EXCL (a planted file or link with that name makes it fail, never redirects it), written,
 * synced, given the target's mode, then renamed over the target. A reader sees the old content or
 * the new, never half; a crash leaves the old file. Renaming also replaces the directory entry, so
 * a hard link to a file outside the roots is broken rather than written through, and a symlink at
 * the target is replaced, not followed.
 *
 * @example
 * ```ts
 * await atomicWrite(target.real, text);
 * ```
 */
export async function atomicWrite(real: string, data: string | Uint8Array, options: AtomicWriteOptions = {}) {
  let mode = options.mode ?? 0o644;
  try {
    const existing = await lstat(real);
    if (existing.isDirectory())
      throw new UserError(`"${basename(real)}" is a directory, so it cannot be written as a file.`);
    if (existing.isFile()) mode = existing.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  options.signal?.throwIfAborted();
  const temp = join(dirname(real), `.${basename(real)}.${randomBytes(8).toString('hex')}.tmp`);
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
    await rename(temp, real);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
