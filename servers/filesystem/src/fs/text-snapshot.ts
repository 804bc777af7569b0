import { createHash } from 'node:crypto';
import { UserError } from '@mcpkit/core/errors';
import { openRegularFile, readSmallFileSync } from './safe-open.js';

/** Largest file edit_file and apply_patch change: the whole text is held, diffed and rewritten in memory. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

/** A text file as read for editing, with what it takes to notice a change made meanwhile. */
export interface TextSnapshot {
  text: string;
  /** The bytes as read: comparing them with the file again is cheaper than hashing it twice. */
  bytes: Uint8Array;
  /** SHA-256 of `bytes`, for a caller that keeps only that; worked out when first asked for. */
  readonly digest: string;
}

// fatal: a file that is not UTF-8 would come back with U+FFFD in place of its bytes, and writing
// that back would destroy them. ignoreBOM: keep a byte order mark in the text, so it is written back.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Files up to this size are read in one synchronous go (see `readSmallFileSync`), the rest streamed. */
const SMALL_EDIT_BYTES = 64 * 1024;

async function readBytes(real: string, display: string, maxBytes: number): Promise<Buffer> {
  const small = readSmallFileSync(real, display, Math.min(SMALL_EDIT_BYTES, maxBytes));
  if (small !== undefined) return small;
  const { handle, size } = await openRegularFile(real, display);
  try {
    if (size > maxBytes) {
      throw new UserError(
        `"${display}" is ${size} bytes, more than the ${maxBytes} bytes that can be edited in place; use write_file to replace it.`,
      );
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads a regular file (never through a link planted after the path was checked) as UTF-8 text for
 * editing. Refuses binary files and invalid UTF-8, which an edit would corrupt.
 *
 * @example
 * ```ts
 * const before = await readTextSnapshot(target.real, target.display);
 * ```
 */
export async function readTextSnapshot(
  real: string,
  display: string,
  maxBytes = MAX_EDIT_BYTES,
): Promise<TextSnapshot> {
  const bytes = await readBytes(real, display, maxBytes);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new UserError(`"${display}" is not UTF-8 text, so it is not edited (its bytes would be damaged).`);
  }
  if (text.includes('\u0000')) {
    throw new UserError(
      `"${display}" looks like a binary file (it contains NUL bytes), so it is not edited.`,
    );
  }
  let digest: string | undefined;
  return {
    text,
    bytes,
    get digest() {
      digest ??= digestOf(bytes);
      return digest;
    },
  };
}

/**
 * Fails when the file no longer has the content it had when read, given as its bytes or their
 * digest: someone else wrote it while the edit was being worked out, and writing now would silently
 * undo their change.
 */
export async function assertUnchanged(
  real: string,
  display: string,
  expected: Uint8Array | string,
  maxBytes = MAX_EDIT_BYTES,
): Promise<void> {
  let now: Buffer | undefined;
  try {
    // Grown past the limit, gone, or no longer a regular file: all of them count as changed.
    now = await readBytes(real, display, maxBytes);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
  }
  const same =
    now !== undefined && (typeof expected === 'string' ? digestOf(now) === expected : now.equals(expected));
  if (!same) {
    throw new UserError(`"${display}" changed while editing; read it again and redo the edit.`);
  }
}
