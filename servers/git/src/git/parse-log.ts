/**
 * `git log` read one commit per record. The official server split the default output on lines, so
 * a message that looked like a header, or a date filter, shifted every entry after it. Here each
 * field is ended by a NUL (`%x00`) and each commit by another (`-z`): no name, date or message can
 * contain a NUL, so a record has exactly the fields asked for, whatever the messages hold.
 */
import * as z from 'zod';

/** The fields of a commit record, in order. */
const COMMIT_FIELDS = ['%H', '%P', '%an', '%ae', '%aI', '%cI', '%s', '%b'] as const;

/** NULs that end one commit of {@link LOG_FORMAT} output: one after each field (`-z` ends the last). */
export const LOG_RECORD_FIELDS = COMMIT_FIELDS.length;

/** The `--format` of {@link parseLog}; use it with `-z`. */
export const LOG_FORMAT = `--format=tformat:${COMMIT_FIELDS.join('%x00')}`;

/**
 * One commit's fields for {@link parseLog} without `-z`, each ended by a NUL: the form for a
 * `format:` that other output follows (git_show's patch), where the last NUL ends the commit.
 */
export const COMMIT_FORMAT = `${COMMIT_FIELDS.join('%x00')}%x00`;

const HASH = /^[0-9a-f]{40,64}$/;

/** Characters of a message body kept by the log (git_show shows the whole message). */
const LOG_BODY_CHARS = 4000;

/** The structured form of a commit, as the log and show tools declare it. */
export const CommitSchema = z.object({
  sha: z.string(),
  parents: z.array(z.string()),
  author: z.string(),
  email: z.string(),
  date: z.string().describe('Author date, ISO 8601'),
  committerDate: z.string().describe('Committer date, ISO 8601: what the date filters compare'),
  subject: z.string(),
  body: z.string().optional(),
});

/** One commit, as the log and show tools return it. */
export interface Commit {
  sha: string;
  parents: string[];
  author: string;
  email: string;
  /** Author date, ISO 8601 with the author's offset. */
  date: string;
  /** Committer date (what --since and --until filter on), ISO 8601. */
  committerDate: string;
  subject: string;
  /** The message after the subject, when there is one. */
  body?: string;
}

/** Parses `git log -z` output made with {@link LOG_FORMAT}; bodies are cut at `bodyChars`. */
export function parseLog(out: string, bodyChars = LOG_BODY_CHARS): Commit[] {
  // Read field by field with indexOf, straight into the commits: a page is thousands of records,
  // and arrays of fields made first only to be taken apart again cost the collector its time.
  const commits: Commit[] = [];
  let at = 0;
  const field = (): string | undefined => {
    const end = out.indexOf('\0', at);
    if (end === -1) return undefined;
    const value = out.slice(at, end);
    at = end + 1;
    return value;
  };
  for (;;) {
    const sha = field();
    const parents = field();
    const author = field();
    const email = field();
    const date = field();
    const committerDate = field();
    const subject = field();
    const rawBody = field();
    // A record cut short (the output was bounded) is left out.
    if (rawBody === undefined) return commits;
    if (!HASH.test(sha ?? '')) throw new Error('git log printed a record without a commit hash');
    let body = rawBody.trimEnd();
    if (body.length > bodyChars) {
      body = `${body.slice(0, bodyChars)}\n[message cut at ${bodyChars} characters; git_show shows it whole]`;
    }
    commits.push({
      sha: sha ?? '',
      parents: parents ? parents.split(' ') : [],
      author: author ?? '',
      email: email ?? '',
      date: date ?? '',
      committerDate: committerDate ?? '',
      subject: subject ?? '',
      ...(body ? { body } : {}),
    });
  }
}

/**
 * A commit as text, in the layout of `git log`: the message indented, so no line of it can pass
 * for a header of the next commit.
 */
export function commitText(commit: Commit): string {
  const merge =
    commit.parents.length > 1 ? `Merge: ${commit.parents.map((p) => p.slice(0, 12)).join(' ')}\n` : '';
  const message = commit.body ? `${commit.subject}\n\n${commit.body}` : commit.subject;
  const indented = message.includes('\n') ? message.replace(/\n/g, '\n    ') : message;
  return `commit ${commit.sha}\n${merge}Author: ${commit.author} <${commit.email}>\nDate:   ${commit.date}\n\n    ${indented}`;
}
