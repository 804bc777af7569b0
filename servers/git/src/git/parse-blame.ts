/**
 * The two machine forms of `git blame`. `--porcelain`: each line of the file after a header naming
 * its commit, the commit's details given once, the first time it appears. File content only ever
 * follows a TAB, so a line of the file cannot pass for a header. `--incremental`: the same headers
 * and details, one record per range of lines (in the order blame settles them, not the file's),
 * and no file content at all. The text form groups runs of lines from one commit.
 */

/** One line of a blamed file. */
export interface BlameLine {
  /** Line number in the file (from 1). */
  line: number;
  /** The commit that last changed the line; forty zeros for a change not committed yet. */
  sha: string;
  author: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
  summary: string;
  text: string;
}

interface CommitInfo {
  author: string;
  time: number;
  tz: string;
  summary: string;
}

/** The commit that last changed one line, without the line's text. */
export type Attribution = Omit<BlameLine, 'line' | 'text'>;

const HEADER = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/;

/** Parses porcelain output; a last entry cut short (bounded output) is left out. */
export function parseBlame(out: string): BlameLine[] {
  const commits = new Map<string, CommitInfo>();
  const lines: BlameLine[] = [];
  let current: { sha: string; line: number; info: CommitInfo } | undefined;
  const rows = out.split('\n');
  // Without a final newline the last row may be cut anywhere: drop it.
  if (!out.endsWith('\n')) rows.pop();
  for (const row of rows) {
    if (current && row.startsWith('\t')) {
      const { info } = current;
      lines.push({
        line: current.line,
        sha: current.sha,
        author: info.author,
        date: isoDate(info.time, info.tz),
        summary: info.summary,
        text: row.slice(1),
      });
      current = undefined;
      continue;
    }
    const header = HEADER.exec(row);
    if (header) {
      const sha = header[1] ?? '';
      current = { sha, line: Number(header[2]), info: commitOf(commits, sha) };
      continue;
    }
    if (current) readDetail(current.info, row);
  }
  return lines;
}

/** A record's header in `--incremental`: commit, line in it, line in the file, number of lines. */
export const RANGE = /^([0-9a-f]{40,64}) \d+ (\d+) (\d+)$/;

/**
 * Parses `--incremental` output: the commit of each line it names, indexed by line number (from
 * 1; lines it does not name are holes). A record counts once its closing `filename` row has come,
 * so a record cut short (bounded output) names no line with half its commit's details.
 */
export function parseIncremental(out: string): Attribution[] {
  const commits = new Map<string, CommitInfo>();
  const dates = new Map<string, Attribution>();
  const lines: Attribution[] = [];
  let open: { sha: string; first: number; count: number; info: CommitInfo } | undefined;
  for (const row of out.split('\n')) {
    const header = RANGE.exec(row);
    if (header) {
      const sha = header[1] ?? '';
      open = { sha, first: Number(header[2]), count: Number(header[3]), info: commitOf(commits, sha) };
      continue;
    }
    if (!open) continue;
    if (!row.startsWith('filename ')) {
      readDetail(open.info, row);
      continue;
    }
    // One object per commit, shared by its lines: the date is worked out once.
    const { sha, first, count, info } = open;
    let attribution = dates.get(sha);
    if (!attribution) {
      attribution = { sha, author: info.author, date: isoDate(info.time, info.tz), summary: info.summary };
      dates.set(sha, attribution);
    }
    for (let line = first; line < first + count; line++) lines[line] = attribution;
    open = undefined;
  }
  return lines;
}

/** The details of commit `sha` read so far: given once, they fill the one object all its lines share. */
function commitOf(commits: Map<string, CommitInfo>, sha: string): CommitInfo {
  let info = commits.get(sha);
  if (!info) {
    info = { author: '', time: 0, tz: '+0000', summary: '' };
    commits.set(sha, info);
  }
  return info;
}

/** One `key value` row of a commit's details, kept when it is one the result shows. */
function readDetail(info: CommitInfo, row: string): void {
  const space = row.indexOf(' ');
  const key = space === -1 ? row : row.slice(0, space);
  const value = space === -1 ? '' : row.slice(space + 1);
  if (key === 'author') info.author = value;
  else if (key === 'author-time') info.time = Number(value) || 0;
  else if (key === 'author-tz') info.tz = value;
  else if (key === 'summary') info.summary = value;
}

/** Unix seconds and a `+hhmm` offset as ISO 8601 in that offset: `2026-01-01T01:00:00+01:00`. */
function isoDate(seconds: number, tz: string): string {
  const match = /^([+-])(\d{2})(\d{2})$/.exec(tz);
  const sign = match?.[1] === '-' ? -1 : 1;
  const offset = match ? sign * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const local = new Date((seconds + offset * 60) * 1000).toISOString().slice(0, 19);
  const zone = match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00';
  return `${local}${zone}`;
}

/**
 * The lines as text, a heading for each run of lines from one commit and the lines indented under
 * it with their numbers: `a1b2c3d4e5f6 Ada 2026-01-01 subject` then `    12 | text`.
 */
export function blameText(lines: readonly BlameLine[]): string[] {
  const out: string[] = [];
  const width = String(lines.at(-1)?.line ?? 0).length;
  let previous: string | undefined;
  for (const l of lines) {
    if (l.sha !== previous) {
      const who = /^0+$/.test(l.sha)
        ? 'not committed yet'
        : `${l.author} ${l.date.slice(0, 10)} ${l.summary}`;
      out.push(`${l.sha.slice(0, 12)} ${who}`);
      previous = l.sha;
    }
    out.push(`  ${String(l.line).padStart(width)} | ${l.text}`);
  }
  return out;
}
