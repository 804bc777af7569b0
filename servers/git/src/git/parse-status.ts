/**
 * `git status --porcelain=v2 --branch -z`: the machine form, stable across git versions and
 * locales, NUL-separated so no file name can forge a line.
 */

export interface StatusEntry {
  path: string;
  /** The path before a rename or copy. */
  from?: string;
  /** Index (staged) state: one letter of git's XY code, `.` for unchanged. */
  staged: string;
  /** Work-tree (unstaged) state, the same letters. */
  unstaged: string;
}

export interface Status {
  branch: string | null;
  head: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  staged: StatusEntry[];
  unstaged: StatusEntry[];
  untracked: string[];
  conflicted: string[];
}

/** Parses porcelain v2 with `--branch` and `-z`. */
export function parseStatus(out: string): Status {
  const status: Status = {
    branch: null,
    head: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    staged: [],
    unstaged: [],
    untracked: [],
    conflicted: [],
  };
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record.startsWith('# ')) header(status, record.slice(2));
    else if (record.startsWith('1 ')) changed(status, fields(record, 9));
    else if (record.startsWith('2 ')) {
      // A rename or copy: the original path is the next NUL-separated record.
      const f = fields(record, 10);
      changed(status, f, records[++i]);
    } else if (record.startsWith('u ')) status.conflicted.push(fields(record, 11)[10] ?? '');
    else if (record.startsWith('? ')) status.untracked.push(record.slice(2));
  }
  return status;
}

/** Splits a record into `count` fields; the last one (the path) keeps any spaces it has. */
function fields(record: string, count: number): string[] {
  const parts = record.split(' ');
  return [...parts.slice(0, count - 1), parts.slice(count - 1).join(' ')];
}

function header(status: Status, line: string): void {
  const [key, ...rest] = line.split(' ');
  const value = rest.join(' ');
  if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.oid') status.head = value === '(initial)' ? null : value;
  else if (key === 'branch.upstream') status.upstream = value;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) {
      status.ahead = Number(m[1]);
      status.behind = Number(m[2]);
    }
  }
}

function changed(status: Status, f: string[], from?: string): void {
  const xy = f[1] ?? '..';
  const path = f[f.length - 1] ?? '';
  const entry: StatusEntry = { path, staged: xy[0] ?? '.', unstaged: xy[1] ?? '.' };
  if (from !== undefined) entry.from = from;
  if (entry.staged !== '.') status.staged.push(entry);
  if (entry.unstaged !== '.') status.unstaged.push(entry);
}

const WORDS: Record<string, string> = {
  M: 'modified',
  T: 'type changed',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
};

/** The status as text, in the spirit of `git status`: what a model reads. */
export function statusText(s: Status, limit = Number.POSITIVE_INFINITY): string {
  const lines: string[] = [];
  const where = s.branch
    ? `On branch ${s.branch}`
    : s.head
      ? `HEAD detached at ${s.head.slice(0, 12)}`
      : 'No commits yet';
  lines.push(where);
  if (s.upstream) {
    const ab = s.ahead || s.behind ? ` (ahead ${s.ahead}, behind ${s.behind})` : ' (up to date)';
    lines.push(`Tracking ${s.upstream}${ab}`);
  }
  let budget = limit;
  const section = (title: string, items: string[]) => {
    if (items.length === 0) return;
    lines.push('', `${title}:`);
    for (const item of items.slice(0, Math.max(0, budget))) lines.push(`  ${item}`);
    if (items.length > budget) lines.push(`  … and ${items.length - Math.max(0, budget)} more`);
    budget -= items.length;
  };
  const describe = (side: 'staged' | 'unstaged') => (e: StatusEntry) =>
    `${WORDS[e[side]] ?? e[side]}: ${e.from !== undefined ? `${e.from} -> ` : ''}${e.path}`;
  section('Changes to be committed', s.staged.map(describe('staged')));
  section('Changes not staged for commit', s.unstaged.map(describe('unstaged')));
  section('Unmerged paths', s.conflicted);
  section('Untracked files', s.untracked);
  if (s.staged.length + s.unstaged.length + s.conflicted.length + s.untracked.length === 0) {
    lines.push('', 'Nothing to commit, working tree clean.');
  }
  return lines.join('\n');
}
