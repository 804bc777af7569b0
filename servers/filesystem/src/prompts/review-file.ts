import { completer } from '@mcpkit/core/completion';
import { getPrompt, type Scope } from '@mcpkit/core/server';
import { completable } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { settingsOf } from '../context.js';
import { resolvePath } from '../fs/paths.js';
import { completePath } from '../resources/complete-path.js';
import { readTextBounded } from './read-bounded.js';

const FOCUS = ['correctness', 'readability', 'security', 'performance', 'tests'] as const;

/** A prompt to review one file: the file's text (bounded) and what to look for. */
export function registerReviewFile(scope: Scope): void {
  const settings = settingsOf(scope);
  scope.mcp.registerPrompt(
    'review_file',
    {
      title: 'Review a file',
      description:
        'Asks the model to review one file inside the allowed directories, with an optional focus.',
      argsSchema: z.object({
        path: completable(
          z.string().describe('The file to review'),
          completer(async (value) =>
            scope.roots ? completePath(await scope.roots.current(), value ?? '', settings) : [],
          ),
        ),
        focus: completable(
          z
            .string()
            .optional()
            .describe(`One of: ${FOCUS.join(', ')}`),
          completer(() => FOCUS),
        ),
      }),
    },
    (args, ctx) =>
      getPrompt(scope, 'review_file', args, ctx, async (flow) => {
        if (!scope.roots) throw new Error('review_file needs directories');
        const target = await resolvePath(await scope.roots.forCall(flow), settings, args.path);
        const text = await readTextBounded(target, Math.min(scope.app.outputLimitBytes, 256 * 1024));
        const focus = args.focus ? ` Focus on ${args.focus}.` : '';
        return {
          description: `Review of ${target.display}`,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Review the file ${target.real} and suggest concrete, prioritised improvements.${focus}\n\n${text}`,
              },
            },
          ],
        };
      }),
  );
}
