import { setTimeout as sleep } from 'node:timers/promises';
import { checkpoint } from '@mcpkit/core/progress';
import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';

const Hit = z.object({ note: z.string(), line: z.number(), text: z.string() });

/**
 * Finds a word in every note, reporting progress per note and stopping promptly when cancelled.
 * `delayMs` slows each note down, so a demo (and a test) can watch progress and cancel mid-way.
 * A 2026 client that declares the tasks extension gets a task to poll instead of waiting.
 */
export const searchNotes = defineTool({
  name: 'search_notes',
  title: 'Search notes',
  description: 'Finds the lines of every note that contain a text (case-insensitive). Reports progress.',
  input: z.object({
    query: z.string().min(1).max(200).describe('The text to find'),
    delayMs: z.number().int().min(0).max(2000).optional().describe('Pause per note, for demos'),
  }),
  output: z.object({ hits: z.array(Hit), scanned: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  task: 'optional',
  async run({ query, delayMs = 0 }, call) {
    const store = await notesOf(call);
    const notes = await store.list();
    const needle = query.toLowerCase();
    const hits: z.infer<typeof Hit>[] = [];
    const tick = checkpoint(call.signal, 1);
    for (const [i, note] of notes.entries()) {
      await tick();
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: call.signal }).catch(() => tick());
      const lines = (await store.read(note.name)).split('\n');
      lines.forEach((text, n) => {
        if (text.toLowerCase().includes(needle))
          hits.push({ note: note.name, line: n + 1, text: text.slice(0, 200) });
      });
      call.progress.report(i + 1, { total: notes.length, message: `searched ${note.name}` });
    }
    call.log.info(`search_notes: ${hits.length} hits in ${notes.length} notes`);
    return {
      text: hits.length
        ? hits.map((h) => `${h.note}:${h.line}: ${h.text}`).join('\n')
        : `No note contains "${query}".`,
      structured: { hits, scanned: notes.length },
    };
  },
});
