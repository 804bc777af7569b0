/**
 * Branches, tags and stash entries as records, read with formats of our own (`for-each-ref`,
 * `log --walk-reflogs`): fields separated by NUL and each record closed by a random marker made
 * per call. A commit message a hostile repository forged with a NUL or a newline in it cannot
 * shift the fields or forge a record: the subject comes last and takes everything up to the marker.
 */
import { randomBytes } from 'node:crypto';

/** A record marker nobody can guess in advance. */
export function recordMarker(): string {
  return `END${randomBytes(12).toString('hex')}`;
}

/** The fields of each record: `fields - 1` fixed fields, then the rest as the last (a NUL in it becomes a space). */
export function splitRecords(out: string, fields: number, marker: string): string[][] {
  const records: string[][] = [];
  for (const chunk of out.split(`\0${marker}\n`)) {
    const text = chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    if (text === '') continue;
    const parts = text.split('\0');
    if (parts.length < fields) continue;
    records.push([...parts.slice(0, fields - 1), parts.slice(fields - 1).join(' ')]);
  }
  return records;
}

/** Text from a repository (a subject, a reason) made safe for one line: no control characters. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** One branch, local or remote. */
export interface BranchInfo {
  /** `main`, or `origin/main` for a remote branch. */
  name: string;
  remote: boolean;
  sha: string;
  /** True for the branch checked out in this work tree. */
  current: boolean;
  /** The branch it tracks (`origin/main`), for a local branch that has one. */
  upstream?: string;
  ahead?: number;
  behind?: number;
  /** True when the upstream branch no longer exists. */
  upstreamGone?: boolean;
  subject: string;
  /** Committer date of the tip, ISO 8601. */
  date: string;
}

/** The `for-each-ref` format {@link parseBranches} reads. */
export function branchFormat(marker: string): string {
  const fields = [
    '%(refname)',
    '%(objectname)',
    '%(HEAD)',
    '%(symref)',
    '%(upstream:short)',
    '%(upstream:track,nobracket)',
    '%(committerdate:iso-strict)',
    '%(contents:subject)',
  ];
  return `--format=${fields.join('%00')}%00${marker}`;
}

/** Parses `for-each-ref` output made with {@link branchFormat}; symbolic refs (`origin/HEAD`) are left out. */
export function parseBranches(out: string, marker: string): BranchInfo[] {
  const branches: BranchInfo[] = [];
  for (const [
    ref = '',
    sha = '',
    head,
    symref,
    upstream,
    track = '',
    date = '',
    subject = '',
  ] of splitRecords(out, 8, marker)) {
    if (symref) continue;
    const local = ref.startsWith('refs/heads/');
    if (!local && !ref.startsWith('refs/remotes/')) continue;
    const branch: BranchInfo = {
      name: ref.slice(local ? 'refs/heads/'.length : 'refs/remotes/'.length),
      remote: !local,
      sha,
      current: head === '*',
      subject: oneLine(subject),
      date,
    };
    if (upstream) {
      branch.upstream = upstream;
      if (track === 'gone') branch.upstreamGone = true;
      else {
        branch.ahead = Number(/ahead (\d+)/.exec(track)?.[1] ?? 0);
        branch.behind = Number(/behind (\d+)/.exec(track)?.[1] ?? 0);
      }
    }
    branches.push(branch);
  }
  return branches;
}

/** One tag. */
export interface TagInfo {
  name: string;
  /** The commit (or other object) the tag finally points to. */
  sha: string;
  /** True for an annotated tag (a tag object with a message), false for a lightweight one. */
  annotated: boolean;
  /** The tagger's date for an annotated tag, the commit's date for a lightweight one. */
  date: string;
  /** The tag message's subject, or the commit's for a lightweight tag. */
  subject: string;
}

/** The `for-each-ref` format {@link parseTags} reads. */
export function tagFormat(marker: string): string {
  const fields = [
    '%(refname)',
    '%(objecttype)',
    '%(objectname)',
    '%(*objectname)',
    '%(creatordate:iso-strict)',
    '%(contents:subject)',
  ];
  return `--format=${fields.join('%00')}%00${marker}`;
}

/** Parses `for-each-ref refs/tags` output made with {@link tagFormat}. */
export function parseTags(out: string, marker: string): TagInfo[] {
  const tags: TagInfo[] = [];
  for (const [ref = '', type, object = '', peeled = '', date = '', subject = ''] of splitRecords(
    out,
    6,
    marker,
  )) {
    if (!ref.startsWith('refs/tags/')) continue;
    const annotated = type === 'tag';
    tags.push({
      name: ref.slice('refs/tags/'.length),
      sha: annotated && peeled ? peeled : object,
      annotated,
      date,
      subject: oneLine(subject),
    });
  }
  return tags;
}

/** One stash entry. */
export interface StashInfo {
  /** `stash@{0}`: the newest is 0. */
  name: string;
  sha: string;
  date: string;
  /** `On main: message`, or `WIP on main: …` when it was saved without a message. */
  message: string;
}

/** The `log --walk-reflogs refs/stash` format {@link parseStashes} reads. */
export function stashFormat(marker: string): string {
  return `--format=%gd%x00%H%x00%cI%x00%gs%x00${marker}`;
}

/** Parses the stash list made with {@link stashFormat}. */
export function parseStashes(out: string, marker: string): StashInfo[] {
  return splitRecords(out, 4, marker)
    .filter(([name = '']) => /^stash@\{\d+\}$/.test(name))
    .map(([name = '', sha = '', date = '', message = '']) => ({
      name,
      sha,
      date,
      message: oneLine(message),
    }));
}
