import { join } from 'node:path';
import { UserError } from '@mcpkit/core/errors';
import { sanitizeForMessage } from '@mcpkit/core/roots';
import * as z from 'zod';
import { definePrompt } from '../context.js';
import { escapeName } from '../fs/display.js';
import { resolvePath } from '../fs/paths.js';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';
import { completePath } from '../resources/complete-path.js';

const MAX_ENTRIES = 500;

/** A prompt to explain a directory: its listing, and the request to explain its layout. */
export const explainDirectory = definePrompt({
  name: 'explain_directory',
  title: 'Explain a directory',
  description: 'Asks the model to explain what a directory contains and how it is organised.',
  args: z.object({ path: z.string().describe('The directory to explain') }),
  complete: {
    path: async (typed, lookup) =>
      completePath(await lookup.roots(), typed, { ...lookup.context, directoriesOnly: true }),
  },
  async get(args, call) {
    const { allowSensitive } = call.context;
    const target = await resolvePath(await call.roots(), call.context, args.path);
    const entries = await listDirectory(target.real).catch(() => {
      throw new UserError(`"${sanitizeForMessage(target.display)}" is not a directory that can be listed.`);
    });
    // As in list_directory: secrets are left out, and names are escaped so none can forge a line.
    const shown = entries.filter((e) => allowSensitive || !isSensitive(join(target.real, e.name)));
    const lines = shown
      .slice(0, MAX_ENTRIES)
      .map((e) => `${e.isDirectory() ? '[DIR] ' : '[FILE]'} ${escapeName(e.name)}`)
      .sort();
    if (shown.length > MAX_ENTRIES) lines.push(`… and ${shown.length - MAX_ENTRIES} more entries`);
    return {
      description: `Explain ${target.display}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Explain what the directory ${escapeName(args.path)} is for and how it is organised. ` +
              `Use the filesystem tools to open the files that matter.\n\n${lines.join('\n')}`,
          },
        },
      ],
    };
  },
});
