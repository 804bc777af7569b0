import { UserError } from '@mcpkit/core/errors';
import { type ShownLines, truncateLines, utf8ByteLength } from '@mcpkit/core/limits';
import { countLinesBefore, type LineWindow, looksBinary, readLines, tailStart } from './line-reader.js';
import { openRegularFile, readSmallFileSync } from './safe-open.js';

/** Which lines to read: a range from a 0-based line (the whole file when open-ended), or the last lines. */
export type TextWindow = { kind: 'range'; first: number; count?: number } | { kind: 'tail'; count: number };

/** Bounds and wording for {@link readTextWindow}. */
export interface ReadTextOptions {
  /** Most UTF-8 bytes the text may take, truncation notice included. */
  byteLimit: number;
  /** Turns `offset=…, limit=…` into the sentence that says how to read on. */
  resume: (args: string) => string;
  signal?: AbortSignal;
}

/** A file to read: its real path and the name that is safe to show in an error. */
export interface TextFile {
  real: string;
  display: string;
}

/**
 * Reads a window of a text file as lines joined by LF, within `byteLimit`. Only the bytes the
 * window needs are read (a tail is found from the end), and a cut result ends with a notice that
 * names the exact `offset` (and `limit`) to continue from. Binary files are refused.
 *
 * @example
 * ```ts
 * const { text } = await readTextWindow(file, { kind: 'tail', count: 20 }, {
 *   byteLimit: 1 << 20, resume: (args) => `Call again with ${args}.`,
 * });
 * ```
 */
export async function readTextWindow(
  file: TextFile,
  window: TextWindow,
  options: ReadTextOptions,
): Promise<{ text: string; truncated: boolean }> {
  const binary = () =>
    new UserError(
      `"${file.display}" looks like a binary file (it contains NUL bytes), so it is not shown as text; use read_media_file for images and audio.`,
    );
  const whole = window.kind === 'range' && window.first === 0 && window.count === undefined;
  if (whole) {
    // The common case, a small file read whole: one read serves both the binary check and the
    // text. A larger file, or one that changed size while read, takes the streaming path below.
    const bytes = readSmallFileSync(file.real, file.display, Math.min(SMALL_FILE, options.byteLimit));
    if (bytes !== undefined) {
      if (bytes.includes(0)) throw binary();
      return { text: bytes.toString('utf8').replace(/\r\n/g, '\n'), truncated: false };
    }
  }
  const { handle, size } = await openRegularFile(file.real, file.display);
  try {
    if (await looksBinary(handle)) throw binary();
    const { byteLimit: byteCap, signal } = options;
    let got: LineWindow;
    let first: number;
    if (window.kind === 'tail') {
      const from = await tailStart(handle, size, window.count, signal);
      got = await readLines(handle, {
        fromByte: from,
        max: window.count,
        byteCap,
        ...(signal ? { signal } : {}),
      });
      // The absolute line number is only needed to say where to resume, and costs a pass over the
      // head of the file, so it is counted only when the lines will not all fit.
      first = joinedBytes(got.lines) > byteCap ? await countLinesBefore(handle, from, signal) : 0;
    } else {
      got = await readLines(handle, {
        skip: window.first,
        ...(window.count !== undefined ? { max: window.count } : {}),
        byteCap,
        ...(signal ? { signal } : {}),
      });
      first = window.first;
      if (got.eof && got.lines.length === 0 && window.first > 0) {
        throw new UserError(
          `"${file.display}" has ${got.linesSeen} lines, so offset ${window.first + 1} is past its end; use a smaller offset.`,
        );
      }
    }
    const cut = truncateLines(got.lines, byteCap, {
      continuation: (shown) =>
        `The file is ${size} bytes. ${continuation(shown, first, window.count, options.resume)}`,
    });
    // A whole-file read keeps the final line feed, so the text is the file (line ends aside).
    const keepFinalNewline = whole && !cut.truncated && got.eof && got.endsWithNewline && cut.bytes < byteCap;
    return { text: keepFinalNewline ? `${cut.text}\n` : cut.text, truncated: cut.truncated };
  } finally {
    await handle.close();
  }
}

/** Files up to this size are read whole in one call when the whole file is asked for. */
const SMALL_FILE = 64 * 1024;

function joinedBytes(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + utf8ByteLength(line) + 1, 0) - (lines.length > 0 ? 1 : 0);
}

function continuation(
  shown: ShownLines,
  first: number,
  count: number | undefined,
  resume: (args: string) => string,
): string {
  // 1-based number of the first line not shown in full.
  const next = first + shown.nextLine + 1;
  const left = count === undefined ? undefined : count - shown.nextLine;
  if (!shown.partialLine) return resume(`offset=${next}${left === undefined ? '' : `, limit=${left}`}`);
  const head = `Line ${next} alone is longer than the output limit, so only its start is shown.`;
  if (left !== undefined && left <= 1) return head;
  return `${head} ${resume(`offset=${next + 1}${left === undefined ? '' : `, limit=${left - 1}`}`)}`;
}
