import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, lutimes, mkdir, open, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { throwIfAborted } from '@mcpkit/core/progress';
import { CREATE_FLAGS, KEPT_MODE_BITS } from './atomic-write.js';
import { codeOf } from './errno-code.js';
import { changedError, type PinnedDir } from './pinned.js';
import { below, confirmByPath, confirmDir, pinChild, sameEntry, statOf } from './tree-dirs.js';
import type { TreeGuard } from './tree-guard.js';
import { specialFileSentence } from './tree-messages.js';

const CHUNK = 256 * 1024;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** One entry a tree copy made, with the identity of its original, so both can be told apart from newcomers. */
export interface CopiedEntry {
  /** Its name in the source directory, and in the copy's below the top (the top's copy has a temporary name). */
  readonly name: string;
  /** The original's inode, on {@link CopiedTree.fromDev} (the copy never crosses a mount). */
  readonly from: number;
  /** The copy's inode, on {@link CopiedTree.toDev}. */
  readonly to: number;
  /** For a directory: its own mode and times, set once the copy is whole, and what was copied into it. */
  readonly dir?: { mode: number; atime: Date; mtime: Date; entries: CopiedEntry[] };
}

/** What a tree copy made, filled as it goes, so a failed copy can remove exactly that. */
export interface CopiedTree {
  readonly fromDev: number;
  toDev?: number;
  top?: CopiedEntry;
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

/** Where one entry is copied from and to. */
interface Step {
  from: PinnedDir;
  name: string;
  relative: string;
  to: PinnedDir;
  targetName: string;
  /** The list of the directory being filled, where the entry's record goes once it exists. */
  into: CopiedEntry[];
}

/**
 * Copies the directory `name` of the pinned `from` to a new directory `targetName` of the pinned
 * `to`, for a move between file systems: files with their permission bits (setuid and setgid
 * dropped) and times, symbolic links as links, never followed. Every directory is entered through
 * a descriptor opened without following links, relative to its parent's (see `pinned.ts`), on both
 * sides, so a subdirectory swapped for a link during the copy fails the copy instead of bringing
 * outside content in, or writing out. `guard` is asked at every entry (slow mounts, a given-up
 * call, mount points). A special file (FIFO, socket, device) fails the copy.
 *
 * Directories are made private (0700) and stay so: their own modes and times come once the whole
 * copy is done (`copy-tree-metadata.ts`), since a read-only one could neither be filled nor, when
 * the copy fails, emptied again. Every entry made is recorded in `made` as soon as it exists:
 * when this throws, the caller removes exactly that (`copy-cleanup.ts`).
 */
export async function copyTree(
  from: PinnedDir,
  name: string,
  to: PinnedDir,
  targetName: string,
  guard: TreeGuard,
  made: CopiedTree,
): Promise<void> {
  const top: CopiedEntry[] = [];
  try {
    await copyEntry({ from, name, relative: '', to, targetName, into: top }, guard, made);
  } finally {
    made.top = top[0];
  }
}

async function copyEntry(step: Step, guard: TreeGuard, made: CopiedTree): Promise<void> {
  const { from, name, relative, to, targetName, into } = step;
  const real = join(from.real, name);
  await guard.enter(real, relative);
  const source = from.entry(name);
  const target = to.entry(targetName);
  const stats = await lstat(source);
  guard.check();
  if (stats.isDirectory()) {
    guard.checkDirectory(stats, real, relative);
    await copyDirectory(step, stats, guard, made);
  } else if (stats.isSymbolicLink()) {
    await symlink(await readlink(source), target);
    into.push({ name, from: stats.ino, to: (await lstat(target)).ino });
    await lutimes(target, stats.atime, stats.mtime);
  } else if (stats.isFile()) {
    await copyFile(source, target, stats, guard.display(relative), guard, (ino) =>
      into.push({ name, from: stats.ino, to: ino }),
    );
  } else {
    throw new UserError(specialFileSentence(guard.display(relative)));
  }
  guard.step();
}

async function copyDirectory(step: Step, stats: Stats, guard: TreeGuard, made: CopiedTree): Promise<void> {
  const { from, name, relative, to, targetName } = step;
  const display = guard.display(relative);
  // Private while it fills, and until the whole copy is done.
  await mkdir(to.entry(targetName), { mode: 0o700 });
  const into = await pinChild(to, targetName, display);
  try {
    const own = await statOf(into);
    if (relative === '') made.toDev = own.dev;
    const entries: CopiedEntry[] = [];
    const meta = { mode: stats.mode & 0o7777, atime: stats.atime, mtime: stats.mtime, entries };
    step.into.push({ name, from: stats.ino, to: own.ino, dir: meta });
    const inside = await pinChild(from, name, display);
    try {
      // The directory looked at, not another one put in its place since.
      await confirmDir(inside, stats, display);
      const names = await readdir(inside.path);
      await confirmByPath(inside, stats, display);
      for (const child of names) {
        const next = { from: inside, name: child, relative: below(relative, child) };
        // Without /proc: nothing written through a copy directory swapped meanwhile, nothing read
        // through a source directory swapped meanwhile kept (see `confirmByPath`).
        await confirmByPath(into, own, display);
        await copyEntry({ ...next, to: into, targetName: child, into: entries }, guard, made);
        await confirmByPath(inside, stats, display);
      }
    } finally {
      await inside.close();
    }
  } finally {
    await into.close();
  }
}

/**
 * Copies the regular file at `source` (its `lstat` is `stats`) to a new file at `target`;
 * `made` is told the new file's inode as soon as it exists.
 */
async function copyFile(
  source: string,
  target: string,
  stats: Stats,
  display: string,
  guard: TreeGuard,
  made: (ino: number) => void,
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
    if (!now.isFile() || !sameEntry(now, stats)) throw changedError(display);
    const mode = stats.mode & KEPT_MODE_BITS;
    const output = await open(target, CREATE_FLAGS, mode);
    try {
      made((await output.stat()).ino);
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
