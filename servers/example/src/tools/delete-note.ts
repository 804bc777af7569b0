import { confirm } from '@mcpkit/core/elicitation';
import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';
import { checkName } from '../notes/store.js';
import { noteUri } from '../notes/uri.js';

/** Deletes a note after the user confirms. Hidden in read-only mode. */
export const deleteNote = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  description: 'Deletes one note after the user confirms (clients that cannot ask need confirm: true).',
  input: z.object({
    name: z.string().describe('The note name, without ".md"'),
    confirm: z.boolean().optional().describe('Consent to delete, when the client cannot ask'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const store = await notesOf(call);
    const name = checkName(args.name);
    await store.path(name); // fails before asking if the name is bad or outside the roots
    if (!(await store.exists(name)))
      return { text: `There is no note "${name}"; nothing was deleted.`, isError: true };
    if (!confirm(call.flow, { message: `Delete the note "${name}"?`, explicit: args.confirm })) {
      return { text: `The note "${name}" was kept: the user declined.` };
    }
    await store.remove(name);
    call.app.hub.resourceUpdated(noteUri(name));
    call.app.hub.listChanged('resources');
    return { text: `Deleted the note "${name}".` };
  },
});
