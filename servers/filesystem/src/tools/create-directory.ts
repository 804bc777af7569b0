import { mkdir } from 'node:fs/promises';
import { UserError } from '@mcpkit/core/errors';
import { defineTool } from '@mcpkit/core/server';
import * as z from 'zod';
import { resolveArg } from '../context.js';
import { lstatIfAny } from '../fs/existing.js';

/** Creates a directory and any missing parents (`mkdir -p`); an existing directory is success. */
export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create directory',
  description:
    'Creates a directory, with any missing parent directories. Succeeds without change if it already ' +
    'exists. Only works within the allowed directories.',
  input: z.object({ path: z.string().describe('The directory to create') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ path }, call) {
    const target = await resolveArg(call, path, 'create-dir');
    const existing = await lstatIfAny(target.real);
    if (existing?.isDirectory()) return { text: `Directory ${target.real} already exists.` };
    if (existing) throw new UserError(`"${target.display}" already exists and is not a directory.`);
    try {
      await mkdir(target.real, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Lost a race with something that put a file on the way since the path was resolved.
      if (code === 'EEXIST' || code === 'ENOTDIR')
        throw new UserError(
          `"${target.display}" cannot be created: a part of it is a file, not a directory.`,
        );
      throw error;
    }
    return { text: `Created directory ${target.real}.` };
  },
});
