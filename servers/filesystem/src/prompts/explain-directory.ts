import { join } from 'node:path';
import { completer } from '@mcpkit/core/completion';
import { UserError } from '@mcpkit/core/errors';
import { getPrompt, type Scope } from '@mcpkit/core/server';
import { completable } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { settingsOf } from '../context.js';
import { escapeName } from '../fs/display.js';
import { resolvePath } from '../fs/paths.js';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';
import { completePath } from '../resources/complete-path.js';

const MAX_ENTRIES = 500;

/** A prompt to explain a directory: its listing, and the request to explain its layout. */
export function registerExplainDirectory(scope: Scope): void {
  const settings = settingsOf(scope);
  scope.mcp.registerPrompt(
    'explain_directory',
    {
      title: 'Explain a directory',
      description: 'Asks the model to explain what a directory contains and how it is organised.',
      argsSchema: z.object({
        path: completable(
          z.string().describe('The directory to explain'),
          completer(async (value) =>
            scope.roots
              ? completePath(await scope.roots.current(), value ?? '', { ...settings, directoriesOnly: true })
              : [],
          ),
        ),
      }),
    },
    (args, ctx) =>
      getPrompt(scope, 'explain_directory', args, ctx, async (flow) => {
        if (!scope.roots) throw new Error('explain_directory needs directories');
        const target = await resolvePath(await scope.roots.forCall(flow), settings, args.path);
        const entries = await listDirectory(target.real).catch(() => {
          throw new UserError(`"${target.display}" is not a directory that can be listed.`);
        });
        // As in list_directory: secrets are left out, and names are escaped so none can forge a line.
        const shown = entries.filter(
          (e) => settings.allowSensitive || !isSensitive(join(target.real, e.name)),
        );
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
                  `Explain what the directory ${target.real} is for and how it is organised. ` +
                  `Use the filesystem tools to open the files that matter.\n\n${lines.join('\n')}`,
              },
            },
          ],
        };
      }),
  );
}
