import * as z from 'zod';
import { definePrompt } from '../context.js';
import { escapeName } from '../fs/display.js';
import { resolvePath } from '../fs/paths.js';
import { completePath } from '../resources/complete-path.js';
import { readTextBounded } from './read-bounded.js';

const FOCUS = ['correctness', 'readability', 'security', 'performance', 'tests'] as const;

/** A prompt to review one file: the file's text (bounded) and what to look for. */
export const reviewFile = definePrompt({
  name: 'review_file',
  title: 'Review a file',
  description: 'Asks the model to review one file inside the allowed directories, with an optional focus.',
  args: z.object({
    path: z.string().describe('The file to review'),
    focus: z
      .string()
      .optional()
      .describe(`One of: ${FOCUS.join(', ')}`),
  }),
  complete: {
    path: async (typed, lookup) => completePath(await lookup.roots(), typed, lookup.context),
    focus: () => FOCUS,
  },
  async get(args, call) {
    const target = await resolvePath(await call.roots(), call.context, args.path);
    const text = await readTextBounded(target, Math.min(call.app.outputLimitBytes, 256 * 1024));
    const focus = args.focus ? ` Focus on ${args.focus}.` : '';
    return {
      description: `Review of ${target.display}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Review the file ${escapeName(args.path)} and suggest concrete, prioritised improvements.${focus}\n\n${text}`,
          },
        },
      ],
    };
  },
});
