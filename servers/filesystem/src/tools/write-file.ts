import { confirm } from '@mcpkit/core/elicitation';
import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool, resolveArg } from '../context.js';
import { atomicWrite } from '../fs/atomic-write.js';
import { lstatIfAny, requireParent } from '../fs/existing.js';
import { askName } from '../fs/paths.js';

/**
 * Creates or replaces a file atomically. Replacing asks first. The write goes to the resolved real
 * path, through a temporary file and a rename, so it keeps the file's mode, breaks a hard link
 * instead of writing through it, and never follows a link planted at the target.
 */
export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write file',
  description:
    'Creates a new file with the given text, or replaces an existing file after the user confirms (clients ' +
    'that cannot ask need confirm: true). The write is atomic and keeps the existing file mode. The ' +
    'directory must already exist. Only works within the allowed directories.',
  input: z.object({
    path: z.string().describe('The file to write'),
    content: z.string().describe('The whole new content, as UTF-8 text'),
    confirm: z
      .boolean()
      .optional()
      .describe('Consent to replace an existing file, when the client cannot ask'),
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
    const message = `Overwrite ${askName(await call.roots(), args.path, target)}?`;
    if (existing && !confirm(call.flow, { message, explicit: args.confirm })) {
      return { text: `"${args.path}" was left unchanged: the user declined to overwrite it.` };
    }
    await atomicWrite(target.real, args.content, { signal: call.signal, display: target.display });
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return { text: `${existing ? 'Replaced' : 'Created'} ${target.real} (${bytes} bytes written).` };
  },
});
