/**
 * `git worktree list --porcelain -z`: one record per work tree, its lines separated by NUL and
 * the record closed by an empty one, so no path can forge a line. The paths are host paths: the
 * tool shows them through the roots' display form, never as they are.
 */

/** One work tree as git lists it (path still absolute). */
export interface WorktreeRecord {
  path: string;
  /** The checked-out commit; absent for a bare entry. */
  head?: string;
  /** The branch checked out (`main`); absent when HEAD is detached. */
  branch?: string;
  detached: boolean;
  bare: boolean;
  locked: boolean;
  lockedReason?: string;
  prunable: boolean;
  prunableReason?: string;
}

/** Parses `worktree list --porcelain -z`. */
export function parseWorktrees(out: string): WorktreeRecord[] {
  const records: WorktreeRecord[] = [];
  let current: WorktreeRecord | undefined;
  for (const line of out.split('\0')) {
    if (line === '') {
      if (current) records.push(current);
      current = undefined;
      continue;
    }
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? undefined : line.slice(space + 1);
    if (key === 'worktree' && value !== undefined) {
      if (current) records.push(current);
      current = { path: value, detached: false, bare: false, locked: false, prunable: false };
      continue;
    }
    if (!current) continue;
    if (key === 'HEAD' && value) current.head = value;
    else if (key === 'branch' && value) current.branch = value.replace(/^refs\/heads\//, '');
    else if (key === 'detached') current.detached = true;
    else if (key === 'bare') current.bare = true;
    else if (key === 'locked') {
      current.locked = true;
      if (value) current.lockedReason = value;
    } else if (key === 'prunable') {
      current.prunable = true;
      if (value) current.prunableReason = value;
    }
  }
  if (current) records.push(current);
  return records;
}
