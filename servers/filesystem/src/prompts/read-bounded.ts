import { UserError } from '@mcpkit/core/errors';
import { truncateText } from '@mcpkit/core/limits';
import type { ResolvedPath } from '@mcpkit/core/roots';
import { openRegularFile } from '../fs/safe-open.js';

/** The text of a file for a prompt, at most `limit` bytes, cut with a notice. */
export async function readTextBounded(target: ResolvedPath, limit: number): Promise<string> {
  if (!target.exists) throw new UserError(`"${target.display}" does not exist.`);
  const { handle, size } = await openRegularFile(target.real, target.display);
  try {
    const want = Math.min(size, limit + 1);
    const buffer = new Uint8Array(want);
    const { bytesRead } = await handle.read(buffer, 0, want, 0);
    if (buffer.subarray(0, Math.min(bytesRead, 8192)).includes(0)) {
      throw new UserError(`"${target.display}" is not a text file.`);
    }
    const text = new TextDecoder().decode(buffer.subarray(0, bytesRead));
    return truncateText(text, limit, { continuation: 'Use read_text_file with offset to read the rest.' })
      .text;
  } finally {
    await handle.close();
  }
}
