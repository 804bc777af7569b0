import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { atomicWrite } from '../fs/atomic-write.js';
import { lstatIfAny, requireParent } from '../fs/existing.js';
import { askName } from '../fs/paths.js';

/**
 * Creates or replaces a file atomically, in one call, as the official server does. The write goes
 * to the resolved real path, through a temporary file and a rename, so it keeps the file's mode,
 * breaks a hard link instead of writing through it, and never follows a link planted at the
 * target. With `--confirm-overwrite` the operator makes every replacement ask the user first.
 */
export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write file',
  description:
    'Creates a new file with the given text, or completely replaces an existing one. The write is atomic and ' +
    'keeps the existing file mode. The directory must already exist. If the server was started with ' +
    '--confirm-overwrite, replacing asks the user first (clients that cannot ask need confirm: true). ' +
    'Only works within the allowed directories.',
  input: z.object({
    path: z.string().describe('The file to write'),
    content: z.string().describe('The whole new content, as UTF-8 text'),
    confirm: z
      .boolean()
      .optional()
      .describe(
        'Consent to replace an existing file, only needed when the server asks and the client cannot',
      ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const target = await resolveArg(call, args.path, 'write');
    const existing = await lstatIfAny(target.real);
    if (existing?.isDirectory()) {
      throw new UserError(`"${target.display}" is a directory, so it cannot be written as a file.`);
    }
    if (existing && !existing.isFile()) {
      throw new UserError(
        `"${target.display}" is not a regular file (a device, socket or pipe), so it is not written.`,
      );
    }
    if (!existing) await requireParent(target.real, target.display);
    // The caller's words, plus where they lead when that is not plain: never a host path.
    const name = askName(await call.roots(), args.path, target);
    if (existing && call.context.confirmOverwrite) {
      const message = `Overwrite ${name}?`;
      if (!confirm(call.flow, { message, explicit: args.confirm })) {
        return { text: `${name} was left unchanged: the user declined to overwrite it.` };
      }
    }
    await atomicWrite(target.real, args.content, { signal: call.signal, display: target.display });
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return { text: `${existing ? 'Replaced' : 'Created'} ${name} (${bytes} bytes written).` };
  },
});
