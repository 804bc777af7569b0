import { paginateArray } from '@mcpkit/core/pagination';
import { defineTool } from '@mcpkit/core/server';
import * as z from 'zod';
import { NoteStore } from '../notes/store.js';

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
    const store = new NoteStore(await call.roots());
    const { page, nextCursor } = paginateArray(await store.list(), {
      codec: call.scope.app.cursors,
      list: 'list_notes',
      cursor,
      pageSize: call.scope.app.resultPageSize,
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
