/**
 * The overview a paged diff starts with (which files, how many lines each) and its text. It is
 * taken from the patch itself (see `patch-units.ts`); `git diff --numstat -z` gives it only for a
 * diff too long to read whole, read from the NUL-separated form so no file name can forge an entry.
 */
import { utf8ByteLength } from '@mcpkit/core/limits';

/** One changed file of a diff. */
export interface FileStat {
  path: string;
  /** The path before a rename or copy. */
  from?: string;
  /** Lines added; `null` for a binary file. */
  added: number | null;
  /** Lines deleted; `null` for a binary file. */
  deleted: number | null;
}

/**
 * Parses `--numstat -z`: `added TAB deleted TAB path NUL`, or for a rename
 * `added TAB deleted TAB NUL from NUL to NUL`; `-` counts mark a binary file.
 */
export function parseNumstat(out: string): FileStat[] {
  const tokens = out.split('\0');
  const files: FileStat[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const head = tokens[i] ?? '';
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(head);
    if (!match) continue;
    const [, added = '-', deleted = '-', path = ''] = match;
    const counts = {
      added: added === '-' ? null : Number(added),
      deleted: deleted === '-' ? null : Number(deleted),
    };
    if (path !== '') {
      files.push({ path, ...counts });
    } else {
      const from = tokens[i + 1] ?? '';
      const to = tokens[i + 2] ?? '';
      files.push({ path: to, from, ...counts });
      i += 2;
    }
  }
  return files;
}

/**
 * The overview as text: one line per file and a total, held to `maxBytes` (the files that do not
 * fit are counted in a last line). Returns the files shown too, for the structured result.
 */
export function overviewText(
  files: readonly FileStat[],
  maxBytes: number,
): { text: string; shown: FileStat[] } {
  let added = 0;
  let deleted = 0;
  for (const f of files) {
    added += f.added ?? 0;
    deleted += f.deleted ?? 0;
  }
  const total = `${files.length} file${files.length === 1 ? '' : 's'} changed, ${added} insertion(s)(+), ${deleted} deletion(s)(-)`;
  const lines: string[] = [];
  const shown: FileStat[] = [];
  let used = utf8ByteLength(total) + 80;
  for (const f of files) {
    const counts = f.added === null ? 'binary' : `+${f.added} -${f.deleted}`;
    const line = ` ${counts.padEnd(12)} ${f.from !== undefined ? `${f.from} => ${f.path}` : f.path}`;
    used += utf8ByteLength(line) + 1;
    if (used > maxBytes) break;
    lines.push(line);
    shown.push(f);
  }
  if (shown.length < files.length) lines.push(` ... and ${files.length - shown.length} more files`);
  lines.push(total);
  return { text: lines.join('\n'), shown };
}
