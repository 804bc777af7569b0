/**
 * Where an absolute path really is on disk, following symbolic links. For a path that does not exist
 * (yet), the deepest existing ancestor is realpath'd and the missing tail re-joined, so a new file
 * under a symlinked directory is judged by where it would really be created (CVE-2025-53109).
 */
import { realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import type path from 'node:path';
import { slowPaths } from './slow-paths.js';

/** The outcome of {@link locate}; the caller turns the failures into user-facing errors. */
export type Located =
  /** The path exists; `real` is its realpath. */
  | { kind: 'found'; real: string }
  /** Nothing exists there; `real` is the realpath of the deepest existing ancestor plus the tail. */
  | { kind: 'missing'; real: string }
  /** A symbolic link on the way (possibly the last component) has no target. `real` as for missing. */
  | { kind: 'dangling'; real: string }
  | { kind: 'not-directory' }
  | { kind: 'loop' }
  | { kind: 'permission' }
  | { kind: 'too-long' };

type Failure = Exclude<Located, { real: string }>;

/**
 * Resolves `absolute` on disk without throwing for the expected failures (missing, not a directory,
 * link loop, permission); unexpected errors are rethrown.
 *
 * @example await locate('/srv/app/new.txt', path) // { kind: 'missing', real: '/srv/app/new.txt' }
 */
export async function locate(absolute: string, p: path.PlatformPath): Promise<Located> {
  try {
    // Synchronous when it is safe, for the common case of a path that exists: the dentries are
    // cached, the call takes about 5 µs, and a thread-pool round trip about 21 µs (measured here),
    // on every tool call. It is the same libuv realpath the promise API runs. With a network or
    // FUSE file system mounted anywhere, a link could lead onto it, and a stalled synchronous call
    // would stop the whole server: then the thread pool answers.
    const real = slowPaths.anySlow ? await realpath(absolute) : realpathSync.native(absolute);
    return { kind: 'found', real };
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') return failure(error);
  }

  const tail: string[] = [];
  let current = absolute;
  let realAncestor: string | undefined;
  while (realAncestor === undefined) {
    const parent = p.dirname(current);
    if (parent === current) throw new Error('No ancestor of the path could be resolved.');
    tail.unshift(p.basename(current));
    current = parent;
    try {
      realAncestor = await realpath(current);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') return failure(error);
    }
  }

  const real = p.join(realAncestor, ...tail);
  const firstMissing = p.join(realAncestor, tail[0] ?? '');
  try {
    // realpath said ENOENT, yet the entry is there: it is a link whose target is missing.
    const stats = await lstat(firstMissing);
    return stats.isSymbolicLink() ? { kind: 'dangling', real } : { kind: 'missing', real };
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? { kind: 'missing', real } : failure(error);
  }
}

function failure(error: unknown): Failure {
  switch (codeOf(error)) {
    case 'ENOTDIR':
      return { kind: 'not-directory' };
    case 'ELOOP':
      return { kind: 'loop' };
    case 'EACCES':
    case 'EPERM':
      return { kind: 'permission' };
    case 'ENAMETOOLONG':
      return { kind: 'too-long' };
    default:
      throw error;
  }
}

function codeOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}
