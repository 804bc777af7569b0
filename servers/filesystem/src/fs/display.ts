import type { EntryType } from './walk.js';

// C0, DEL, C1, line/paragraph separators and bidi controls: a file name holding one could break a
// listing into fake lines or make a name read differently from what it is.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// Without the g flag, so testing keeps no state; most names have nothing to escape.
const HAS_UNSAFE = new RegExp(UNSAFE.source);
const SHORT: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * A name or path as it may appear in text output: control characters escaped (`\n`, `\u0000`).
 * Structured output keeps the real name; only the text rendering is escaped.
 *
 * @example escapeName('a\nb') // 'a\\nb'
 */
export function escapeName(name: string): string {
  if (!HAS_UNSAFE.test(name)) return name;
  return name.replace(UNSAFE, escapeChar);
}

/** A line of file content for text output: like {@link escapeName}, but tabs stay tabs (code is indented with them). */
export function escapeLine(line: string): string {
  if (!HAS_UNSAFE.test(line)) return line;
  return line.replace(UNSAFE, (ch) => (ch === '\t' ? ch : escapeChar(ch)));
}

function escapeChar(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const TAGS: Record<EntryType, string> = {
  directory: '[DIR]',
  file: '[FILE]',
  symlink: '[LINK]',
  other: '[OTHER]',
};

/** The official listing tag of an entry type; `[LINK]` and `[OTHER]` are additions. */
export function typeTag(type: EntryType): string {
  return TAGS[type];
}

const TAGGED: Record<EntryType, string> = {
  directory: '[DIR] ',
  file: '[FILE] ',
  symlink: '[LINK] ',
  other: '[OTHER] ',
};

/**
 * The tag of an entry type and the space after it, as one constant: a listing line is then one
 * concatenation with the name, not two (a 10k-entry listing makes 10k fewer strings).
 *
 * @example tagged('file') + 'a.txt' // '[FILE] a.txt'
 */
export function tagged(type: EntryType): string {
  return TAGGED[type];
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * A byte count as the official server prints it: "0 B", "512 B", "1.50 KB" (powers of 1024).
 *
 * @example formatSize(1536) // '1.50 KB'
 */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0 B';
  const unit = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  if (unit === 0) return `${bytes} B`;
  return `${(bytes / 1024 ** unit).toFixed(2)} ${UNITS[unit]}`;
}

/**
 * A path below a directory, spelled from the caller's name for that directory, so a listed path can
 * be passed straight back to a tool and shows no real path the caller did not send.
 *
 * @example beneath('src/', 'lib/a.ts') // 'src/lib/a.ts'
 */
export function beneath(dir: string, relative: string): string {
  if (relative === '') return dir;
  if (dir === '') return relative;
  // "/" trims to "", and the entries sit right under it: "/etc".
  return `${dir.replace(/[\\/]+$/, '')}/${relative}`;
}
