import { isAbsolute, relative } from 'node:path';
import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { resolveEntry } from '../fs/entry.js';
import { lstatIfAny, requireParent } from '../fs/existing.js';
import type { MoveOutcome } from '../fs/move-tree.js';
import { askName } from '../fs/paths.js';
import type { Kept } from '../fs/remove-copied.js';
import { moveEntry } from '../fs/transfer.js';

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Entries a move between file systems left behind: they were not there, as they are, when it was copied. */
function keptNote(kept: Kept, from: string): string {
  if (kept.count === 0) return '';
  const names = kept.shown.map((name) => `"${name}"`).join(', ');
  const more = kept.count > kept.shown.length ? ` and ${kept.count - kept.shown.length} more` : '';
  const one = kept.count === 1;
  return ` ${one ? 'One entry' : `${kept.count} entries`} that appeared or changed in ${from} while it was being copied ${one ? 'was' : 'were'} not moved and ${one ? 'is' : 'are'} still there (${names}${more}); move ${one ? 'it' : 'them'} separately.`;
}

function cancelNote(outcome: MoveOutcome): string {
  return outcome.cancelIgnored
    ? ' The cancel came after the copy was in place, so the move was finished rather than left half done.'
    : '';
}

/**
 * Moves or renames a file or directory within the allowed directories. Like the official server it
 * fails when the destination exists; `overwrite: true` replaces an existing file after the user
 * confirms. A symbolic link is moved as the link. An allowed directory itself cannot be moved, nor
 * a mount point to another file system. A directory moved across file systems is copied, then
 * removed (see `move-tree.ts`); the answer names what was left in its old place, if anything.
 */
export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move file',
  description:
    'Moves or renames a file or directory. Fails if the destination exists, unless overwrite is true and ' +
    'the destination is a file; then the user is asked first (clients that cannot ask need confirm: true). ' +
    'Works across file systems. Both paths must be within the allowed directories.',
  input: z.object({
    source: z.string().describe('The file or directory to move'),
    destination: z.string().describe('Its new path, including its name'),
    overwrite: z.boolean().optional().describe('Replace an existing destination file (default false)'),
    confirm: z
      .boolean()
      .optional()
      .describe('Consent to replace the destination, when the client cannot ask'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const roots = await call.roots();
    const source = await resolveEntry(roots, call.context, args.source, 'moved');
    const target = await resolveArg(call, args.destination, 'write');
    if (target.real === source.real) {
      throw new UserError(`"${source.display}" and "${target.display}" are the same path; nothing to move.`);
    }
    if (source.stats.isDirectory() && isInside(source.real, target.real)) {
      throw new UserError(
        `"${target.display}" is inside "${source.display}"; a directory cannot be moved into itself.`,
      );
    }
    const existing = await lstatIfAny(target.real);
    if (existing && args.overwrite !== true) {
      throw new UserError(`"${target.display}" already exists; pass overwrite: true to replace it.`);
    }
    if (existing?.isDirectory()) {
      throw new UserError(`"${target.display}" is an existing directory, which move_file does not replace.`);
    }
    if (existing && source.stats.isDirectory()) {
      throw new UserError(`"${target.display}" is a file; a directory cannot replace a file.`);
    }
    if (!existing) await requireParent(target.real, target.display);
    const from = askName(roots, args.source, source);
    const to = askName(roots, args.destination, target);
    const question = `Replace ${to} with ${from} (moved)?`;
    if (existing && !confirm(call.flow, { message: question, explicit: args.confirm })) {
      return { text: `Nothing was moved: the user declined to replace ${to}.` };
    }
    const outcome = await moveEntry(source, target, {
      signal: call.signal,
      log: (line) => call.app.log.warn(`move_file: ${line}`),
    });
    return { text: `Moved ${from} to ${to}.${keptNote(outcome.kept, from)}${cancelNote(outcome)}` };
  },
});
