import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import { assertOpenedAt } from './pinned.js';

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a file for reading without following a symlink planted after the path was checked, and
 * refuses anything but a regular file (a FIFO would hang the read, a device would never end).
 * O_NOFOLLOW guards only the last name, so on Linux the opened descriptor's real path is then
 * compared with `real`: a directory on the way swapped for a link since the check makes it refuse
 * instead of reading a file outside the roots. `display` is the safe name to put in an error.
 */
export async function openRegularFile(
  real: string,
  display: string,
): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(real, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`"${display}" does not exist.`);
    if (code === 'ELOOP') throw new UserError(`"${display}" is a symbolic link, which is not followed here.`);
    if (code === 'EISDIR')
      throw new UserError(`"${display}" is a directory; use list_directory to see inside it.`);
    if (code === 'EACCES' || code === 'EPERM')
      throw new UserError(`"${display}" cannot be read: permission denied.`);
    // A socket cannot be opened at all; it is no more a regular file than a pipe is.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP')
      throw new UserError(`"${display}" is not a regular file (a socket or device), so it is not read.`);
    throw error;
  }
  try {
    await assertOpenedAt(handle.fd, real, display);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new UserError(
      `"${display}" is not a regular file (a directory, device, socket or pipe), so it is not read.`,
    );
  }
  return { handle, size: info.size };
}
