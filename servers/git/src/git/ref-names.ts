/**
 * Names a client can complete: branches and tags (for refs), recent commits (for SHAs), and the
 * files of a tree (for paths at a ref). Each is capped: completion answers 100 at most, and a
 * repository can hold a million files.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Repository } from './repository.js';

/** Local branches, then tags, then remote branches, by name. */
export async function refNames(repo: Repository, signal?: AbortSignal): Promise<string[]> {
  const out = await repo.runRaw(
    ['for-each-ref', '--format=%(refname:short)', '--count=2000', 'refs/heads', 'refs/tags', 'refs/remotes'],
    signal ? { signal } : {},
  );
  return out.code === 0 ? out.stdout.split('\n').filter(Boolean) : [];
}

/** The short SHAs of the latest commits on HEAD. */
export async function recentCommits(repo: Repository, count = 50, signal?: AbortSignal): Promise<string[]> {
  const out = await repo.runRaw(['log', `--max-count=${count}`, '--format=%h'], signal ? { signal } : {});
  return out.code === 0 ? out.stdout.split('\n').filter(Boolean) : [];
}

/** The paths of the files in the tree of `sha`, at most `limit`. */
export async function treePaths(
  repo: Repository,
  sha: string,
  limit = 20_000,
  signal?: AbortSignal,
): Promise<string[]> {
  const out = await repo.runRaw(['ls-tree', '-r', '--name-only', '-z', sha], {
    maxOutputBytes: limit * 256,
    ...(signal ? { signal } : {}),
  });
  return out.code === 0 || out.truncated ? out.stdout.split('\0').filter(Boolean).slice(0, limit) : [];
}

/**
 * A tag that changes whenever HEAD, any ref or the index does: what a subscription to a
 * repository's state polls. One cheap process; no work-tree scan.
 */
export async function stateTag(repo: Repository, signal?: AbortSignal): Promise<string> {
  const refs = await repo.runRaw(
    ['for-each-ref', '--format=%(objectname) %(refname)'],
    signal ? { signal } : {},
  );
  const head = await repo.runRaw(
    ['rev-parse', '--symbolic-full-name', 'HEAD', 'HEAD'],
    signal ? { signal } : {},
  );
  const index = await stat(join(repo.gitDir, 'index')).catch(() => undefined);
  return `${head.stdout}|${refs.stdout}|${index ? `${index.mtimeMs}:${index.size}` : '-'}`;
}
