import { loopTool, runToolLoop, SamplingUnavailableError } from '@mcpkit/core/sampling';
import * as z from 'zod';
import { defineTool, notesOf } from '../context.js';

/**
 * Asks the client's model about the notes, lending it a read-only `read_note` tool for the loop:
 * sampling with tools, in both eras. Without sampling it returns the note list instead, and says so.
 */
export const summarizeNotes = defineTool({
  name: 'summarize_notes',
  title: 'Summarize notes',
  description:
    "Answers a question about the notes using the client's model, which may read notes while it works.",
  input: z.object({
    question: z.string().max(2000).optional().describe('What to find out; default: a summary'),
  }),
  output: z.object({ answer: z.string(), model: z.string(), notesRead: z.number(), sampled: z.boolean() }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  async run({ question }, call) {
    const store = await notesOf(call);
    const names = (await store.list()).map((n) => n.name);
    const readTool = loopTool({
      name: 'read_note',
      description: 'Returns the text of one note.',
      input: z.object({ name: z.string() }),
      run: ({ name }) => store.read(name),
    });
    try {
      const out = await runToolLoop(call.flow, {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Notes: ${names.join(', ') || '(none)'}.\n${question ?? 'Summarize these notes in a few sentences.'}`,
            },
          },
        ],
        systemPrompt: "You answer questions about a user's notes. Read the notes you need with read_note.",
        maxTokens: 1000,
        tools: [readTool],
      });
      const notesRead = out.toolCalls.filter((c) => c.name === 'read_note' && !c.isError).length;
      return { text: out.text, structured: { answer: out.text, model: out.model, notesRead, sampled: true } };
    } catch (error) {
      if (!(error instanceof SamplingUnavailableError)) throw error;
      const text = `This client cannot sample, so here are the notes to read yourself: ${names.join(', ') || '(none)'}.`;
      return { text, structured: { answer: text, model: '', notesRead: 0, sampled: false } };
    }
  },
});
