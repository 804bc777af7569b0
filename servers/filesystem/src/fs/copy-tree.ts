import { constants, type Stats } from 'node:fs';
import {
  chmod,
  type FileHandle,
  lstat,
  lutimes,
  mkdir,
  open,
  readdir,
  readlink,
  symlink,
  utimes,
} from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';
import { KEPT_MODE_BITS } from './atomic-write.js';
import { changedError, type PinnedDir } from './pinned.js';
import type { TreeGuard } from './tree-guard.js';

const CHUNK = 256 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** A new file, never one already there and never through a link planted at its name. */
export const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Copies every byte of `input` into `output`, checking `signal` before each chunk so a given-up
 * or cancelled copy stops there; `step` is told of each chunk written. Returns the bytes copied.
 */
export async function copyBytes(
  input: FileHandle,
  output: FileHandle,
  signal: AbortSignal | undefined,
  step: () => void = () => {},
): Promise<number> {
  const buffer = Buffer.alloc(CHUNK);
  let copied = 0;
  for (;;) {
    throwIfAborted(signal);
    const { bytesRead } = await input.read(buffer, 0, CHUNK, copied);
    if (bytesRead === 0) return copied;
    await output.write(buffer, 0, bytesRead);
    copied += bytesRead;
    step();
  }
}

/**
 * Copies the directory `name` of the pinned `from` to a new directory `targetName` of the pinned
 * `to`, for a move between file systems: files with their permission bits (setuid and setgid
 * dropped) and times, directories with their modes and times, symbolic links as links, never
 * followed. Every directory is entered through a descriptor opened without following links,
 * relative to its parent's (see `pinned.ts`), on both sides, so a subdirectory swapped for a link
 * during the copy fails the copy instead of bringing outside content in, or writing out. `guard`
 * is asked at every entry (slow mounts, a given-up call, mount points). A special file (FIFO,
 * socket, device) fails the copy. The caller removes what was copied when this throws.
 */
export async function copyTree(
  from: PinnedDir,
  name: string,
  to: PinnedDir,
  targetName: string,
  guard: TreeGuard,
): Promise<void> {
  await copyEntry(from, name, join(from.real, name), '', to, targetName, guard);
}

async function copyEntry(
  from: PinnedDir,
  name: string,
  real: string,
  relative: string,
  to: PinnedDir,
  targetName: string,
  guard: TreeGuard,
): Promise<void> {
  await guard.enter(real, relative);
  const source = from.entry(name);
  const target = to.entry(targetName);
  const stats = await lstat(source);
  throwIfAborted(guard.signal);
  if (stats.isDirectory()) {
    guard.checkDirectory(stats, real, relative);
    await copyDirectory(from, name, real, relative, to, targetName, stats, guard);
  } else if (stats.isSymbolicLink()) {
    await symlink(await readlink(source), target);
    await lutimes(target, stats.atime, stats.mtime);
  } else if (stats.isFile()) {
    await copyFile(source, target, stats, guard.display(relative), guard);
  } else {
    throw new UserError(
      `"${guard.display(relative)}" is a special file (a FIFO, socket or device), which a move to another file system cannot copy; nothing was moved.`,
    );
  }
  guard.step();
}

async function copyDirectory(
  from: PinnedDir,
  name: string,
  real: string,
  relative: string,
  to: PinnedDir,
  targetName: string,
  stats: Stats,
  guard: TreeGuard,
): Promise<void> {
  // Private while it fills; its own mode comes once it is full (a read-only one could not be filled).
  await mkdir(to.entry(targetName), { mode: 0o700 });
  const inside = await pinChild(from, name, guard.display(relative));
  try {
    const into = await pinChild(to, targetName, guard.display(relative));
    try {
      for (const child of await readdir(inside.path)) {
        const sub = relative === '' ? child : `${relative}/${child}`;
        await copyEntry(inside, child, `${real}/${child}`, sub, into, child, guard);
      }
    } finally {
      await into.close();
    }
  } finally {
    await inside.close();
  }
  throwIfAborted(guard.signal);
  await chmod(to.entry(targetName), stats.mode & 0o7777);
  await utimes(to.entry(targetName), stats.atime, stats.mtime);
}

/** The subdirectory `name` of `dir`, pinned; one swapped for a link or a file is a changed tree. */
async function pinChild(dir: PinnedDir, name: string, display: string): Promise<PinnedDir> {
  try {
    return await dir.child(name);
  } catch (error) {
    const code = codeOf(error);
    throw code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT' ? changedError(display) : error;
  }
}

/** Copies the regular file at `source` (its `lstat` is `stats`) to a new file at `target`. */
async function copyFile(
  source: string,
  target: string,
  stats: Stats,
  display: string,
  guard: TreeGuard,
): Promise<void> {
  let input: FileHandle;
  try {
    input = await open(source, READ_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    throw code === 'ELOOP' || code === 'ENOENT' ? changedError(display) : error;
  }
  try {
    // Still the file the lstat saw: not a FIFO, a device or another file put in its place.
    const now = await input.stat();
    if (!now.isFile() || now.ino !== stats.ino || now.dev !== stats.dev) throw changedError(display);
    const mode = stats.mode & KEPT_MODE_BITS;
    const output = await open(target, CREATE_FLAGS, mode);
    try {
      await copyBytes(input, output, guard.signal, () => guard.step());
      await output.chmod(mode);
      await output.utimes(stats.atime, stats.mtime);
    } finally {
      await output.close();
    }
  } finally {
    await input.close();
  }
}
