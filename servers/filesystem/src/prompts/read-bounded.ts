import { UserError } from '@mcpkit/core/errors';
import { type ResolvedPath, sanitizeForMessage } from '@mcpkit/core/roots';
import { readTextWindow } from '../fs/read-text.js';

/**
 * The text of a file for a prompt or a sampling loop, at most `limit` bytes: read_text_file's own
 * reader (regular files only, binary refused, cut with a notice that names the offset to go on from).
 */
export async function readTextBounded(target: ResolvedPath, limit: number): Promise<string> {
  if (!target.exists) throw new UserError(`"${sanitizeForMessage(target.display)}" does not exist.`);
  const { text } = await readTextWindow(
    target,
    { kind: 'range', first: 0 },
    { byteLimit: limit, resume: (args) => `Read on with read_text_file ${args}.` },
  );
  return text;
}
