import { confirm } from '@mcpkit/core/elicitation';
import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';
import { checkName } from '../notes/store.js';
import { noteUri } from '../notes/uri.js';

/** Writes a note atomically; replacing an existing one needs the user's consent. */
export const writeNote = defineTool({
  name: 'write_note',
  title: 'Write a note',
  description:
    'Creates a note, or replaces an existing one after the user confirms (clients that cannot ask need confirm: true).',
  input: z.object({
    name: z.string().describe('The note name, without ".md"'),
    text: z.string().max(1_000_000).describe('The whole note, in Markdown'),
    confirm: z
      .boolean()
      .optional()
      .describe('Consent to replace an existing note, when the client cannot ask'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const store = await notesOf(call);
    const name = checkName(args.name);
    if (await store.exists(name)) {
      const ok = confirm(call.flow, { message: `Replace the note "${name}"?`, explicit: args.confirm });
      if (!ok) return { text: `The note "${name}" was left as it was: the user declined.` };
    }
    await store.write(name, args.text);
    call.app.hub.resourceUpdated(noteUri(name));
    call.app.hub.listChanged('resources');
    return { text: `Saved the note "${name}" (${Buffer.byteLength(args.text)} bytes).` };
  },
});
