import { completer } from '@mcpkit/core/completion';
import { getPrompt, type Scope } from '@mcpkit/core/server';
import { completable } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { NoteStore } from '../notes/store.js';

const FOCUS = ['clarity', 'structure', 'typos', 'next steps'] as const;

/** A prompt to review one note, with the note's name and the focus completable. */
export function registerReviewNote(scope: Scope): void {
  const names = async () => {
    const set = scope.roots ? await scope.roots.current() : undefined;
    return set ? (await new NoteStore(set).list()).map((n) => n.name) : [];
  };
  scope.mcp.registerPrompt(
    'review_note',
    {
      title: 'Review a note',
      description: 'Asks the model to review one note, with an optional focus.',
      argsSchema: z.object({
        name: completable(z.string().describe('The note to review'), completer(names)),
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
      getPrompt(scope, 'review_note', args, ctx, async (flow) => {
        if (!scope.roots) throw new Error('review_note needs a notes directory');
        const text = await new NoteStore(await scope.roots.forCall(flow)).read(args.name);
        const focus = args.focus ? ` Focus on ${args.focus}.` : '';
        return {
          description: `Review of ${args.name}`,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Review this note and suggest concrete improvements.${focus}\n\n${text}`,
              },
            },
          ],
        };
      }),
  );
}
