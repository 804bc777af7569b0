import { rm, unlink } from 'node:fs/promises';
import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import { defineTool } from '@mcpkit/core/server';
import * as z from 'zod';
import { settingsOf } from '../context.js';
import { countEntries } from '../fs/count-entries.js';
import { resolveEntry } from '../fs/entry.js';

// Counting a bigger tree would keep the user waiting for the question; past this it says "more than".
const COUNT_CAP = 100_000;

function entriesPhrase(count: number): string {
  if (count > COUNT_CAP) return `more than ${COUNT_CAP} entries`;
  return `${count} ${count === 1 ? 'entry' : 'entries'}`;
}

/**
 * Deletes a file, a symbolic link (the link, never its target) or, with `recursive: true`, a
 * directory and everything in it. Always asks the user first; for a directory the question says
 * how many entries will go.
 */
export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete file',
  description:
    'Deletes a file, or a directory with everything in it when recursive is true. The user is always asked ' +
    'first (clients that cannot ask need confirm: true). A symbolic link is deleted itself; what it points ' +
    'to is kept. The allowed directories themselves cannot be deleted.',
  input: z.object({
    path: z.string().describe('The file or directory to delete'),
    recursive: z
      .boolean()
      .optional()
      .describe('Needed to delete a directory and its content (default false)'),
    confirm: z.boolean().optional().describe('Consent to delete, when the client cannot ask'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const entry = await resolveEntry(await call.roots(), settingsOf(call.scope), args.path, 'deleted');
    if (entry.stats.isDirectory()) {
      if (args.recursive !== true) {
        throw new UserError(
          `"${entry.display}" is a directory; pass recursive: true to delete it with everything in it.`,
        );
      }
      const what = entriesPhrase(await countEntries(entry.real, COUNT_CAP, call.signal));
      const question = `Delete the directory "${args.path}" and the ${what} in it?`;
      if (!confirm(call.flow, { message: question, explicit: args.confirm })) {
        return { text: `Nothing was deleted: the user declined to delete "${args.path}".` };
      }
      await rm(entry.real, { recursive: true });
      return { text: `Deleted the directory ${entry.real} and the ${what} in it.` };
    }
    const link = entry.stats.isSymbolicLink();
    const question = link
      ? `Delete the symbolic link "${args.path}"? What it points to is kept.`
      : `Delete "${args.path}"?`;
    if (!confirm(call.flow, { message: question, explicit: args.confirm })) {
      return { text: `Nothing was deleted: the user declined to delete "${args.path}".` };
    }
    await unlink(entry.real);
    return { text: `Deleted ${link ? 'the symbolic link ' : ''}${entry.real}.` };
  },
});
