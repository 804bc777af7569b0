/**
 * `git log -g` (the reflog: where a ref pointed, and why it moved), read one NUL-ended record per
 * entry like the log (see `parse-log.ts`). With `--date=unix` git's selector carries the entry's
 * time (`main@{1767225600}`); the index form (`main@{3}`) is rebuilt from the entry's position.
 */
const FIELDS = ['%H', '%gd', '%gn', '%gs'] as const;

/** NULs that end one entry of {@link REFLOG_FORMAT} output: one after each field. */
export const REFLOG_RECORD_FIELDS = FIELDS.length;

/** The `--format` of {@link parseReflog}; use it with `-z` and `--date=unix`. */
export const REFLOG_FORMAT = `--format=tformat:${FIELDS.join('%x00')}`;

/** One reflog entry. */
export interface ReflogEntry {
  /** `HEAD@{0}`: the name that reads this entry with other git commands. */
  selector: string;
  sha: string;
  /** When the ref moved, ISO 8601 (UTC). */
  date: string;
  /** Who moved it. */
  identity: string;
  /** What moved it: `commit`, `checkout`, `reset`, `commit (amend)`… */
  action: string;
  /** git's whole line: `checkout: moving from main to topic`. */
  subject: string;
}

/**
 * The complete records of `-z` output whose format joins `fields` fields with `%x00`. A record cut
 * short (the output was bounded) is left out.
 */
function splitRecords(out: string, fields: number): string[][] {
  // A record is `fields` fields with a NUL after each: the last one is the record's end (`-z`).
  // One pass with indexOf: a long reflog is read without an array of every field first.
  const records: string[][] = [];
  let at = 0;
  for (;;) {
    const record: string[] = [];
    for (let f = 0; f < fields; f++) {
      const end = out.indexOf('\0', at);
      if (end === -1) return records;
      record.push(out.slice(at, end));
      at = end + 1;
    }
    records.push(record);
  }
}

/** Parses `git log -g -z --date=unix` output made with {@link REFLOG_FORMAT}; `first` is the index of its first entry. */
export function parseReflog(out: string, first: number): ReflogEntry[] {
  return splitRecords(out, FIELDS.length).map(([sha = '', selector = '', identity = '', subject = ''], i) => {
    const match = /^(.*)@\{(\d+)\}$/.exec(selector);
    const name = match?.[1] ?? selector;
    const seconds = Number(match?.[2] ?? 0);
    const colon = subject.indexOf(': ');
    return {
      selector: `${name}@{${first + i}}`,
      sha,
      date: new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'),
      identity,
      action: colon === -1 ? subject : subject.slice(0, colon),
      subject,
    };
  });
}

/** An entry as one line of text: `HEAD@{0} a1b2c3d4e5f6 2026-01-01T00:00:00Z commit: message`. */
export function reflogLine(entry: ReflogEntry): string {
  return `${entry.selector} ${entry.sha.slice(0, 12)} ${entry.date} ${entry.subject.replace(/[\r\n]+/g, ' ')}`;
}
