/**
 * Directories of a tree walk held by descriptor (see `pinned.ts`), and the identity checks that
 * keep a walk on the very directories it looked at: every tree walk (count, delete, the copy of a
 * move between file systems, its clean-up and the removal of its source) enters directories here.
 */
import { constants, type Stats } from 'node:fs';
import { chmod, type FileHandle, lstat, open, stat, utimes } from 'node:fs/promises';
import { codeOf } from './errno-code.js';
import { changedError, hasProcFd, type PinnedDir } from './pinned.js';

/** Device and inode: what makes an entry the same one, whatever its name now. */
export interface Identity {
  dev: number;
  ino: number;
}

export function sameEntry(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The entry `name` of the directory at `relative` (`/`-separated, from the top of the walk). */
export function below(relative: string, name: string): string {
  return relative === '' ? name : `${relative}/${name}`;
}

/** An entry below the top that vanished while the tree was walked is as good as removed. */
export async function ignoreGone(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * The stats of the pinned directory itself: through its descriptor where `/proc/self/fd` has it
 * (the link there leads to the directory held, whatever happened to its path since), else from its
 * path without following a link.
 */
export function statOf(dir: PinnedDir): Promise<Stats> {
  return hasProcFd() ? stat(dir.path) : lstat(dir.path);
}

/**
 * The subdirectory `name` of `dir`, pinned; one swapped for a link or a file is a changed tree
 * (named `display`), one that is gone stays ENOENT for the caller.
 */
export async function pinChild(dir: PinnedDir, name: string, display: string): Promise<PinnedDir> {
  try {
    return await dir.child(name);
  } catch (error) {
    const code = codeOf(error);
    throw code === 'ELOOP' || code === 'ENOTDIR' ? changedError(display) : error;
  }
}

/**
 * Fails unless `dir` is still the directory `expected` (device and inode). With `/proc` the
 * descriptor pins the directory, so this catches one swapped for another directory between a look
 * at its name and the open. Without `/proc` the path is all there is: looked at again after each
 * use, it shows a directory swapped for a link or another directory and left so, though not one
 * swapped back in between (see the README's security notes).
 */
export async function confirmDir(dir: PinnedDir, expected: Identity, display: string): Promise<void> {
  let now: Stats;
  try {
    now = await statOf(dir);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') throw changedError(display);
    throw error;
  }
  expectDir(now, expected, display);
}

function expectDir(now: Stats, expected: Identity, display: string): void {
  if (!now.isDirectory() || !sameEntry(now, expected)) throw changedError(display);
}

/** {@link confirmDir} where only a path stands for the directory (no `/proc`); a no-op elsewhere. */
export async function confirmByPath(dir: PinnedDir, expected: Identity, display: string): Promise<void> {
  if (!hasProcFd()) await confirmDir(dir, expected, display);
}

/** Opens a directory itself for reading, never through a symbolic link. */
export const HANDLE_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Sets the mode (and the times, when given) of the pinned directory `dir`, which must be the one
 * `expected` names; never by a name that could have been swapped for a link since. With `/proc`
 * through the descriptor's link (which leads to the very directory held, and needs no read
 * permission on it), elsewhere through a descriptor opened without following a link and checked.
 */
export async function setDirMode(
  dir: PinnedDir,
  expected: Identity,
  meta: { mode: number; atime?: Date; mtime?: Date },
  display: string,
): Promise<void> {
  if (hasProcFd()) {
    await confirmDir(dir, expected, display);
    await chmod(dir.path, meta.mode);
    if (meta.atime && meta.mtime) await utimes(dir.path, meta.atime, meta.mtime);
    return;
  }
  let handle: FileHandle;
  try {
    handle = await open(dir.path, HANDLE_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    throw code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT' ? changedError(display) : error;
  }
  try {
    expectDir(await handle.stat(), expected, display);
    await handle.chmod(meta.mode);
    if (meta.atime && meta.mtime) await handle.utimes(meta.atime, meta.mtime);
  } finally {
    await handle.close();
  }
}
