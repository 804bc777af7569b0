import { isAbsolute, relative } from 'node:path';
import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { resolveEntry } from '../fs/entry.js';
import { lstatIfAny, requireParent } from '../fs/existing.js';
import { askName } from '../fs/paths.js';
import { moveEntry } from '../fs/transfer.js';

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Moves or renames a file or directory within the allowed directories. Like the official server it
 * fails when the destination exists; `overwrite: true` replaces an existing file after the user
 * confirms. A symbolic link is moved as the link. An allowed directory itself cannot be moved.
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
    await moveEntry(source, target, call.signal);
    return { text: `Moved ${from} to ${to}.` };
  },
});
