import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';

/** Reads one note. The text is sent once, as text: no structured copy of a big body. */
export const readNote = defineTool({
  name: 'read_note',
  title: 'Read a note',
  description: 'Returns the text of one note.',
  input: z.object({ name: z.string().describe('The note name, without ".md"') }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ name }, call) {
    return { text: await (await notesOf(call)).read(name) };
  },
});
