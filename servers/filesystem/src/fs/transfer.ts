import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { cp, open, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { throwIfAborted } from '@mcpkit/core/progress';
import { openRegularFile } from './safe-open.js';

const CHUNK = 256 * 1024;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** A random sibling name for a temporary entry: unpredictable, so nothing can be planted there first. */
export function tempSibling(real: string): string {
  return join(dirname(real), `.${basename(real)}.${randomBytes(8).toString('hex')}.tmp`);
}

/** Options of {@link copyFileAtomic}. */
export interface CopyOptions {
  /** Mode of the copy; default the source's permission bits (without setuid/setgid, as `cp` does). */
  mode?: number;
  signal?: AbortSignal;
}

/**
 * Copies a regular file the way `atomicWrite` writes one: the source is opened without following
 * links, streamed into a temporary file with a random name created with O_EXCL beside the target,
 * synced, then renamed over the target. A symlink planted at the target is replaced, never
 * followed, and a reader never sees half a copy. Returns the bytes copied.
 *
 * @example
 * ```ts
 * const bytes = await copyFileAtomic({ real: src.real, display: src.display }, dest.real);
 * ```
 */
export async function copyFileAtomic(
  source: { real: string; display: string },
  target: string,
  options: CopyOptions = {},
): Promise<number> {
  const { handle: input } = await openRegularFile(source.real, source.display);
  try {
    const mode = options.mode ?? (await input.stat()).mode & 0o777;
    const temp = tempSibling(target);
    const output = await open(temp, CREATE_FLAGS, mode);
    let copied = 0;
    try {
      try {
        const buffer = Buffer.alloc(CHUNK);
        for (;;) {
          throwIfAborted(options.signal);
          const { bytesRead } = await input.read(buffer, 0, CHUNK, copied);
          if (bytesRead === 0) break;
          await output.write(buffer, 0, bytesRead);
          copied += bytesRead;
        }
        await output.chmod(mode);
        await output.sync();
      } finally {
        await output.close();
      }
      throwIfAborted(options.signal);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return copied;
  } finally {
    await input.close();
  }
}

/**
 * Moves a directory entry (a file, a directory, or a symbolic link itself) by renaming it, and when
 * the two places are on different file systems (EXDEV) by copying it next to the target under a
 * temporary name, renaming that into place, then removing the source. Links inside a moved tree are
 * copied as links, never followed.
 */
export async function moveEntry(
  source: { real: string; display: string; stats: Stats },
  target: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await rename(source.real, target);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const temp = tempSibling(target);
  try {
    if (source.stats.isSymbolicLink()) {
      await symlink(await readlink(source.real), temp);
    } else if (source.stats.isDirectory()) {
      await cp(source.real, temp, {
        recursive: true,
        errorOnExist: true,
        force: false,
        verbatimSymlinks: true,
        preserveTimestamps: true,
      });
    } else {
      await copyFileAtomic(source, temp, { mode: source.stats.mode & 0o7777, ...(signal ? { signal } : {}) });
    }
    throwIfAborted(signal);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  if (source.stats.isDirectory()) await rm(source.real, { recursive: true });
  else await unlink(source.real);
}
