import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { lstatIfAny, requireParent } from '../fs/existing.js';
import { askName } from '../fs/paths.js';
import { copyFileAtomic } from '../fs/transfer.js';

/**
 * Copies one file. An existing destination is replaced only with `overwrite: true` and the user's
 * consent; the copy lands through a temporary file and a rename, so a link planted at the
 * destination is replaced, never written through.
 */
export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy file',
  description:
    'Copies a file to a new path. Directories are not copied. If the destination exists, the call fails ' +
    'unless overwrite is true, and then the user is asked first (clients that cannot ask need confirm: ' +
    'true). The destination directory must exist. Only works within the allowed directories.',
  input: z.object({
    source: z.string().describe('The file to copy'),
    destination: z.string().describe('The path of the copy, including its file name'),
    overwrite: z.boolean().optional().describe('Replace the destination if it exists (default false)'),
    confirm: z
      .boolean()
      .optional()
      .describe('Consent to replace the destination, when the client cannot ask'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const source = await resolveArg(call, args.source);
    const sourceStats = await lstatIfAny(source.real);
    if (!sourceStats) throw new UserError(`"${source.display}" does not exist; check the path.`);
    if (sourceStats.isDirectory()) {
      throw new UserError(`"${source.display}" is a directory; copy_file copies single files.`);
    }
    if (!sourceStats.isFile()) {
      throw new UserError(
        `"${source.display}" is not a regular file (a device, socket or pipe), so it is not copied.`,
      );
    }
    const target = await resolveArg(call, args.destination, 'write');
    if (target.real === source.real) {
      throw new UserError(`"${source.display}" and "${target.display}" are the same file; nothing to copy.`);
    }
    const existing = await lstatIfAny(target.real);
    if (existing?.isDirectory()) {
      throw new UserError(
        `"${target.display}" is a directory; give the full path of the copy, including its file name.`,
      );
    }
    if (existing && !existing.isFile()) {
      throw new UserError(`"${target.display}" is not a regular file, so it is not replaced.`);
    }
    if (existing && args.overwrite !== true) {
      throw new UserError(`"${target.display}" already exists; pass overwrite: true to replace it.`);
    }
    if (!existing) await requireParent(target.real, target.display);
    const roots = await call.roots();
    const from = askName(roots, args.source, source);
    const to = askName(roots, args.destination, target);
    const question = `Replace ${to} with a copy of ${from}?`;
    if (existing && !confirm(call.flow, { message: question, explicit: args.confirm })) {
      return { text: `${to} was left unchanged: the user declined to replace it.` };
    }
    const bytes = await copyFileAtomic(source, target.real, {
      // A replaced file keeps its own mode, as with write_file.
      ...(existing ? { mode: existing.mode } : {}),
      signal: call.signal,
      display: target.display,
    });
    return {
      text: `Copied ${from} to ${to} (${bytes} bytes; ${existing ? 'replaced the existing file' : 'new file'}).`,
    };
  },
});
