import { answerText } from '@mcpkit/core/sampling';
import { inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { askForm, type FormSchema } from './ask.js';
import { defineTool } from './context.js';

const NO_ARGS = z.object({});
const READ_ONLY = { readOnlyHint: true, idempotentHint: false, openWorldHint: false } as const;

const NAME_FORM: FormSchema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

/**
 * The diagnostic tools of the stateless (SEP-2575) scenario: one that needs a capability the
 * probe does not declare, and one whose question must travel inside the result, never as a
 * server-to-client request on the response stream.
 */
export const statelessTools = [
  defineTool({
    name: 'test_missing_capability',
    title: 'Needs sampling',
    description: 'Needs the client to sample; without that capability the call fails with -32021 (2026).',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      // No capability check on purpose: the SDK must refuse an ask the client cannot answer.
      const answer = call.flow.ask(
        'reply',
        inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
          maxTokens: 20,
        }),
      );
      return {
        text: answer.kind === 'sampling' ? `The model says: ${answerText(answer.result)}` : 'No answer.',
      };
    },
  }),
  defineTool({
    name: 'test_streaming_elicitation',
    title: 'Question on the response stream',
    description:
      'Asks the user a question; in 2026 the question travels inside the result, never as a request.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const answer = askForm(call.flow, 'user_name', 'What is your name?', NAME_FORM);
      return { text: `Answered with action=${answer.action}.` };
    },
  }),
];
