import * as z from 'zod';
import { definePrompt, noteNames, notesOf } from '../context.js';

const FOCUS = ['clarity', 'structure', 'typos', 'next steps'] as const;

/** A prompt to review one note, with the note's name and the focus completable. */
export const reviewNote = definePrompt({
  name: 'review_note',
  title: 'Review a note',
  description: 'Asks the model to review one note, with an optional focus.',
  args: z.object({
    name: z.string().describe('The note to review'),
    focus: z
      .string()
      .optional()
      .describe(`One of: ${FOCUS.join(', ')}`),
  }),
  complete: { name: (_typed, lookup) => noteNames(lookup), focus: () => FOCUS },
  async get(args, call) {
    const text = await (await notesOf(call)).read(args.name);
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
  },
});
