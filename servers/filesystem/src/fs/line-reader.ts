import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from '@mcpkit/core/progress';

/**
 * Reading a window of lines from an open file without loading the file: forward from a line (head,
 * offset) or backward from the end (tail). Lines are split on LF bytes, which never occur inside a
 * multi-byte UTF-8 sequence, so each line decodes on its own; a CR before the LF is dropped.
 */

const CHUNK = 64 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How many leading bytes {@link looksBinary} inspects. */
export const SNIFF_BYTES = 8 * 1024;

/** The lines a read collected, and where they sit in the file. */
export interface LineWindow {
  /** Decoded lines, without their line ends. */
  lines: string[];
  /** True when collecting stopped at the byte cap, so later lines of the window were not read. */
  capped: boolean;
  /** True when the read reached the end of the file. */
  eof: boolean;
  /** True when the file's last byte is a line feed (meaningful when `eof`). */
  endsWithNewline: boolean;
  /** Lines seen from the start position up to where reading stopped (skipped ones included). */
  linesSeen: number;
}

/** Where {@link readLines} starts and when it stops. */
export interface ReadLinesOptions {
  /** Byte position to start at; 0 unless a tail read found its start. */
  fromByte?: number;
  /** Lines to pass over before collecting. */
  skip?: number;
  /** Lines to collect at most. */
  max?: number;
  /** Stop once the collected lines hold more than this many bytes: the caller shows at most that. */
  byteCap: number;
  signal?: AbortSignal;
}

/** True when the first {@link SNIFF_BYTES} bytes hold a NUL, which text files do not have. */
export async function looksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}

async function* chunksFrom(handle: FileHandle, from: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  let position = from;
  for (;;) {
    throwIfAborted(signal);
    // A fresh buffer per read: slices of it are kept as line parts.
    const buffer = Buffer.alloc(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

function decodeLine(parts: Buffer[], atFileStart: boolean): string {
  let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  if (atFileStart && bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
  return bytes.toString('utf8');
}

/**
 * Reads lines forward: passes over `skip` lines, then collects up to `max` lines, stopping early once
 * they exceed `byteCap` (a single line longer than that is kept only in part, which is all a caller
 * bounded by `byteCap` could show anyway).
 *
 * @example
 * ```ts
 * const { lines } = await readLines(handle, { skip: 99, max: 10, byteCap: 1 << 20 }); // lines 100-109
 * ```
 */
export async function readLines(handle: FileHandle, options: ReadLinesOptions): Promise<LineWindow> {
  const fromByte = options.fromByte ?? 0;
  const skip = options.skip ?? 0;
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const cap = options.byteCap;
  const lines: string[] = [];
  let index = 0; // lines ended so far, counted from fromByte
  let lineBytes = 0; // raw length of the line being read, collected or not
  let part: Buffer[] = []; // what is kept of it, when collecting
  let partBytes = 0;
  let collected = 0;
  let lastByte = -1;

  const endLine = (): void => {
    if (index >= skip) {
      lines.push(decodeLine(part, fromByte === 0 && index === 0));
      collected += partBytes + (lines.length > 1 ? 1 : 0);
    }
    index++;
    part = [];
    partBytes = 0;
    lineBytes = 0;
  };
  const result = (capped: boolean, eof: boolean): LineWindow => ({
    lines,
    capped,
    eof,
    endsWithNewline: lastByte === LF,
    linesSeen: index,
  });

  if (max <= 0) return result(false, false);
  for await (const chunk of chunksFrom(handle, fromByte, options.signal)) {
    lastByte = chunk[chunk.length - 1]!;
    let start = 0;
    while (start <= chunk.length) {
      const end = chunk.indexOf(LF, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      lineBytes += piece.length;
      // Past the cap nothing more of the line could be shown, so the rest is not kept.
      if (index >= skip && partBytes <= cap && piece.length > 0) {
        part.push(piece);
        partBytes += piece.length;
      }
      if (end === -1) break;
      endLine();
      if (lines.length >= max || collected > cap) return result(collected > cap, false);
      start = end + 1;
    }
    // A line longer than the cap cannot be shown whole: keep its head and stop reading.
    if (index >= skip && partBytes > cap) {
      endLine();
      return result(true, false);
    }
  }
  // The last line has no line feed after it.
  if (lineBytes > 0) endLine();
  return result(collected > cap, true);
}

/**
 * The byte position where the last `count` lines of the file begin (a final line feed ends the last
 * line, it does not start an empty one). Reads backward in chunks, so only the tail is touched.
 */
export async function tailStart(
  handle: FileHandle,
  size: number,
  count: number,
  signal?: AbortSignal,
): Promise<number> {
  let end = size;
  let found = 0;
  // Skip the newline that ends the file, so it is not taken for the start of an empty line.
  let limit = size - 1;
  while (end > 0) {
    throwIfAborted(signal);
    const start = Math.max(0, end - CHUNK);
    const buffer = Buffer.alloc(end - start);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    let at = Math.min(bytesRead, limit - start) - 1;
    while (at >= 0) {
      const hit = buffer.lastIndexOf(LF, at);
      if (hit === -1) break;
      found++;
      if (found === count) return start + hit + 1;
      at = hit - 1;
    }
    limit = start;
    end = start;
  }
  return 0;
}

/** How many lines end before byte `end`: the 0-based line number of the line that starts there. */
export async function countLinesBefore(
  handle: FileHandle,
  end: number,
  signal?: AbortSignal,
): Promise<number> {
  let count = 0;
  let position = 0;
  for await (const chunk of chunksFrom(handle, 0, signal)) {
    const slice = chunk.subarray(0, Math.max(0, end - position));
    let at = slice.indexOf(LF);
    while (at !== -1) {
      count++;
      at = slice.indexOf(LF, at + 1);
    }
    position += chunk.length;
    if (position >= end) break;
  }
  return count;
}
