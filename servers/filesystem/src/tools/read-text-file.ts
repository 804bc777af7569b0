import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, type FsCall, resolveArg } from '../context.js';
import { readTextWindow, type TextWindow } from '../fs/read-text.js';

const Lines = z.number().int().positive();

/** The arguments of read_text_file (and of its deprecated alias read_file). */
export const ReadTextInput = z.object({
  path: z.string().describe('The file to read'),
  head: Lines.optional().describe('If provided, returns only the first N lines of the file'),
  tail: Lines.optional().describe('If provided, returns only the last N lines of the file'),
  offset: Lines.optional().describe('First line to return, counting from 1 (with limit: a line range)'),
  limit: Lines.optional().describe('Number of lines to return, starting at offset (default 1)'),
});

/** Turns the mutually exclusive line arguments into one window, or says which ones clash. */
export function windowOf(args: z.infer<typeof ReadTextInput>): TextWindow {
  const range = args.offset !== undefined || args.limit !== undefined;
  const given = [
    args.head !== undefined && 'head',
    args.tail !== undefined && 'tail',
    range && 'offset/limit',
  ];
  const chosen = given.filter((name): name is string => name !== false);
  if (chosen.length > 1) {
    throw new UserError(`Give only one of head, tail or offset/limit (got ${chosen.join(' and ')}).`);
  }
  if (args.head !== undefined) return { kind: 'range', first: 0, count: args.head };
  if (args.tail !== undefined) return { kind: 'tail', count: args.tail };
  return {
    kind: 'range',
    first: (args.offset ?? 1) - 1,
    ...(args.limit !== undefined ? { count: args.limit } : {}),
  };
}

/** The shared handler of read_text_file and read_file. */
export async function runReadText(
  args: z.infer<typeof ReadTextInput>,
  call: FsCall,
): Promise<{ text: string }> {
  const window = windowOf(args);
  const file = await resolveArg(call, args.path);
  const { text } = await readTextWindow(file, window, {
    byteLimit: call.app.outputLimitBytes,
    resume: (next) => `Call read_text_file again with ${next} to read on.`,
    signal: call.signal,
  });
  // The text is sent once: a structured copy would double a large body for no gain.
  return { text };
}

/**
 * Reads a text file, or the lines of it asked for, bounded by the output limit with the exact
 * offset to continue from. Big files are streamed (head, offset) or read from the end (tail).
 */
export const readTextFile = defineTool({
  name: 'read_text_file',
  title: 'Read text file',
  description:
    'Reads a file as UTF-8 text. Use head or tail for the first or last N lines, or offset and limit for a ' +
    'range of lines (1-based); only one of the three. Line ends are returned as LF. Output over the size ' +
    'limit is cut at a line and ends with the offset to continue from. Binary files are refused ' +
    '(use read_media_file for images and audio). Only works within the allowed directories.',
  input: ReadTextInput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, call) => runReadText(args, call),
});
