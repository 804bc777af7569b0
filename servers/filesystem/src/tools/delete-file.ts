import { stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool } from '../context.js';
import { countEntries } from '../fs/count-entries.js';
import { resolveEntry } from '../fs/entry.js';
import { askName } from '../fs/paths.js';
import { assertSameEntry, withParentDir } from '../fs/pinned.js';
import { removeTree } from '../fs/remove-tree.js';
import { TreeGuard } from '../fs/tree-guard.js';

// Counting a bigger tree would keep the user waiting for the question; past this it says "more than".
const COUNT_CAP = 100_000;

function entriesPhrase(count: number): string {
  if (count > COUNT_CAP) return `more than ${COUNT_CAP} entries`;
  return `${count} ${count === 1 ? 'entry' : 'entries'}`;
}

/**
 * Deletes a file, a symbolic link (the link, never its target) or, with `recursive: true`, a
 * directory and everything in it. Always asks the user first; for a directory the question says
 * how many entries will go. The parent directory is pinned and the entry confirmed to be the one
 * checked, and a tree is removed without ever following a link (see `remove-tree.ts`), so a
 * directory swapped for a link meanwhile cannot turn the delete against something outside.
 *
 * A recursive delete never crosses onto another mount (`rm -r --one-file-system`, and bind mounts
 * too; see `tree-guard.ts`), and a mount point itself is not deleted (`rm --preserve-root=all`):
 * emptying it would empty a whole file system, and the directory could not go anyway. A mount
 * point below is refused before the question, so nothing is deleted: at once where the mount
 * table shows it (Linux), else when the count meets it, which covers every tree up to the count's
 * cap. Beyond the cap, or for a mount made after the count, the removal itself stops there, each
 * directory checked before any entry in it goes.
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
    const roots = await call.roots();
    const entry = await resolveEntry(roots, call.context, args.path, 'deleted');
    const name = askName(roots, args.path, entry);
    if (entry.stats.isDirectory()) {
      if (args.recursive !== true) {
        throw new UserError(
          `"${entry.display}" is a directory; pass recursive: true to delete it with everything in it.`,
        );
      }
      const guard = await TreeGuard.open(entry, {
        signal: call.signal,
        action: 'delete',
        dev: entry.stats.dev,
      });
      guard.refuseMountedTop(await stat(dirname(entry.real)));
      guard.refuseListedMounts();
      const count = await countEntries(entry.real, COUNT_CAP, guard);
      const what = entriesPhrase(count);
      const question = `Delete the directory ${name} and the ${what} in it?`;
      if (!confirm(call.flow, { message: question, explicit: args.confirm })) {
        return { text: `Nothing was deleted: the user declined to delete ${name}.` };
      }
      await withParentDir(entry.real, entry.display, async (dir, base) => {
        await assertSameEntry(dir.entry(base), entry.stats, entry.display);
        await removeTree(dir, base, { guard });
      });
      return { text: `Deleted the directory ${name} and the ${what} in it.` };
    }
    const link = entry.stats.isSymbolicLink();
    const question = link
      ? `Delete the symbolic link ${name}? What it points to is kept.`
      : `Delete ${name}?`;
    if (!confirm(call.flow, { message: question, explicit: args.confirm })) {
      return { text: `Nothing was deleted: the user declined to delete ${name}.` };
    }
    await withParentDir(entry.real, entry.display, async (dir, base) => {
      await assertSameEntry(dir.entry(base), entry.stats, entry.display);
      call.signal.throwIfAborted();
      await unlink(dir.entry(base));
    });
    return { text: `Deleted ${link ? 'the symbolic link ' : ''}${name}.` };
  },
});
