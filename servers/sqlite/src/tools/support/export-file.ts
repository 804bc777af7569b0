/**
 * Writing an export into an export directory. The path was already resolved inside the roots by
 * core (symlinks followed and checked, a dangling link refused); this writes to it so that the
 * file appears whole or not at all, and nothing outside can be reached by swapping things in
 * meanwhile:
 * - the data goes to a temporary file with a random name beside the target, created with
 *   O_EXCL | O_NOFOLLOW, so a planted file or link of that name makes the write fail;
 * - the folder is checked again (its real path must not have changed) just before the file is put
 *   in place;
 * - a new file is put in place with link(2), which fails if something appeared at the name since it
 *   was checked (nothing is ever overwritten without the user's consent); a confirmed replacement
 *   uses rename(2), which replaces a link at the name instead of following it.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, lstat, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';

/** What is at the target now: nothing, a regular file, or something that is not replaced. */
export async function targetState(real: string, display: string): Promise<'none' | 'file'> {
  const folder = await lstat(dirname(real)).catch(() => undefined);
  if (!folder?.isDirectory()) {
    throw new UserError(
      `The folder for "${display}" does not exist; create it first or choose another path.`,
    );
  }
  const info = await lstat(real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UserError(`"${display}" cannot be checked, so nothing was written there.`);
  });
  if (!info) return 'none';
  if (info.isDirectory()) throw new UserError(`"${display}" is a folder; give a file name inside it.`);
  if (!info.isFile()) throw new UserError(`"${display}" is not a regular file, so it is not replaced.`);
  return 'file';
}

/**
 * Writes `content` to `real`, replacing a file there only when `replace` is true (the user
 * agreed). Throws a {@link UserError} naming only `display`.
 */
export async function writeExportFile(
  real: string,
  content: string,
  options: { display: string; replace: boolean; signal: AbortSignal },
): Promise<void> {
  const folder = dirname(real);
  const temp = join(folder, `.${basename(real)}.${randomBytes(8).toString('hex')}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  const handle = await open(temp, flags, 0o644).catch(() => {
    throw new UserError(`The export cannot be written beside "${options.display}"; check the folder.`);
  });
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    throwIfAborted(options.signal);
    if ((await realpath(folder).catch(() => '')) !== folder) {
      throw new UserError(
        `The folder of "${options.display}" changed while exporting, so nothing was written.`,
      );
    }
    if (options.replace) {
      await rename(temp, real);
    } else {
      await link(temp, real).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') {
          throw new UserError(`"${options.display}" appeared while exporting, so it was left as it is.`);
        }
        // A file system without hard links: check once more, then rename.
        return targetState(real, options.display).then(async (state) => {
          if (state !== 'none') {
            throw new UserError(`"${options.display}" appeared while exporting, so it was left as it is.`);
          }
          await rename(temp, real);
        });
      });
    }
  } finally {
    await rm(temp, { force: true });
  }
}
