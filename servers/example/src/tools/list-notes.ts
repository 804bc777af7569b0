import { paginateArray } from '@mcpkit/core/pagination';
import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';

const Note = z.object({ name: z.string(), bytes: z.number(), modified: z.string() });

/** Lists notes a page at a time; the cursor is opaque and tamper-evident. */
export const listNotes = defineTool({
  name: 'list_notes',
  title: 'List notes',
  description:
    'Lists the notes, by name, with size and last change. Pass the returned cursor to get the next page.',
  input: z.object({
    cursor: z.string().optional().describe('The nextCursor of the previous page, to continue'),
  }),
  output: z.object({ notes: z.array(Note), nextCursor: z.string().optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ cursor }, call) {
    const store = await notesOf(call);
    const { page, nextCursor } = paginateArray(await store.list(), {
      codec: call.app.cursors,
      list: 'list_notes',
      cursor,
      pageSize: call.app.resultPageSize,
      keyOf: (n) => n.name,
    });
    const lines = page.map((n) => `${n.name}  (${n.bytes} bytes, ${n.modified})`);
    if (nextCursor) lines.push(`More notes follow: call list_notes with cursor "${nextCursor}".`);
    return {
      text: lines.length > 0 ? lines.join('\n') : 'There are no notes yet.',
      structured: { notes: page, ...(nextCursor ? { nextCursor } : {}) },
    };
  },
});
