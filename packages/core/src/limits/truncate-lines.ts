import { type Continuation, fitWithMarker, resolveHint, type ShownPart, truncationMarker } from './marker.js';
import { utf8ByteLength, utf8Prefix } from './utf8.js';

/** What was kept of a list of lines, for the caller's hint. */
export interface ShownLines extends ShownPart {
  /** Lines shown in full. */
  lines: number;
  /** Index of the first line not shown in full; equals `lines`. */
  nextLine: number;
  /**
   * True when not even the first line fit, so its head is shown alone: resuming at `nextLine` would
   * repeat the same cut, so the hint should point to a byte or character offset instead.
   */
  partialLine: boolean;
}

export interface TruncateLinesOptions {
  /** How to get the rest, usually built from `nextLine`: `({ nextLine }) => \`Call again with head=…\``. */
  continuation: Continuation<ShownLines>;
  /** Joins the lines; `'\n'` by default. */
  separator?: string;
}

export interface TruncatedLines {
  /** The lines joined, or the head that fits plus a notice line. */
  text: string;
  truncated: boolean;
  /** UTF-8 size of all lines joined. */
  bytes: number;
  /** UTF-8 bytes of the joined lines that were kept (the notice not included). */
  shownBytes: number;
  /** Lines shown in full. */
  shownLines: number;
  /** Index of the first line not shown in full, when truncated. */
  nextLine?: number;
  /** See {@link ShownLines.partialLine}. */
  partialLine: boolean;
}

/**
 * Bounds a run of lines to `limitBytes` of UTF-8, notice included, cutting only between lines and
 * reporting the first omitted line so a line-range read can resume exactly there. A first line too
 * long to fit on its own is cut on a code point boundary instead, so the output is never empty.
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * const startLine = 101; // the tool's argument, counted from 1
 * const lines = (await readFile(`${dir}/app.log`, 'utf8')).split('\n').slice(startLine - 1);
 * const r = truncateLines(lines, call.app.outputLimitBytes, {
 *   continuation: ({ nextLine }) => `Call again with start_line=${startLine + nextLine}.`,
 * });
 * ```
 */
export function truncateLines(
  lines: readonly string[],
  limitBytes: number,
  options: TruncateLinesOptions,
): TruncatedLines {
  const separator = options.separator ?? '\n';
  const separatorBytes = utf8ByteLength(separator);
  const sizes = lines.map(utf8ByteLength);
  const bytes = sizes.reduce((sum, size) => sum + size, 0) + separatorBytes * Math.max(0, lines.length - 1);
  if (bytes <= limitBytes) {
    const text = lines.join(separator);
    return { text, truncated: false, bytes, shownBytes: bytes, shownLines: lines.length, partialLine: false };
  }

  const cut = (budget: number): ShownLines & { text: string } => {
    let used = 0;
    let count = 0;
    for (const size of sizes) {
      const next = used + (count === 0 ? 0 : separatorBytes) + size;
      if (next > budget) break;
      used = next;
      count++;
    }
    if (count === 0) {
      const head = utf8Prefix(lines[0] ?? '', budget);
      const partialLine = head.text.length > 0;
      return {
        text: head.text,
        bytes: head.bytes,
        chars: head.text.length,
        lines: 0,
        nextLine: 0,
        partialLine,
      };
    }
    const text = lines.slice(0, count).join(separator);
    return { text, bytes: used, chars: text.length, lines: count, nextLine: count, partialLine: false };
  };

  const { shown, marker } = fitWithMarker(limitBytes, cut, (part) => {
    const { text: _text, ...info } = part;
    const summary = part.partialLine
      ? `the first line alone is ${sizes[0]} bytes; showed its first ${part.bytes} of ${bytes} bytes`
      : `showed ${part.lines} of ${lines.length} lines (${part.bytes} of ${bytes} bytes)`;
    return truncationMarker(summary, resolveHint(options.continuation, info));
  });
  return {
    text: shown.text + marker,
    truncated: true,
    bytes,
    shownBytes: shown.bytes,
    shownLines: shown.lines,
    nextLine: shown.nextLine,
    partialLine: shown.partialLine,
  };
}
