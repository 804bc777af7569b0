import { answerText, sample } from '@mcpkit/core/sampling';
import * as z from 'zod';
import { askForm, describeAnswer, type FormSchema } from './ask.js';
import { defineTool } from './context.js';

const READ_ONLY = { readOnlyHint: true, idempotentHint: false, openWorldHint: false } as const;

/** SEP-1034: a default for every primitive type. */
const DEFAULTS_SCHEMA: FormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', default: 'John Doe' },
    age: { type: 'integer', title: 'Age', default: 30 },
    score: { type: 'number', title: 'Score', default: 95.5 },
    status: { type: 'string', title: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', title: 'Verified', default: true },
  },
};

/** SEP-1330: the five enum shapes, untitled and titled, single and multiple choice. */
const ENUMS_SCHEMA: FormSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/**
 * Sampling and elicitation fixtures, written once with core's flow: the 2025 shim turns each
 * question into a real server-to-client request, a 2026 client answers it in a retried call.
 */
export const clientInputTools = [
  defineTool({
    name: 'test_sampling',
    title: 'Sampling',
    description: "Sends the prompt to the client's model and returns its answer.",
    input: z.object({ prompt: z.string().describe('The prompt to send to the model') }),
    annotations: READ_ONLY,
    run({ prompt }, call) {
      // sample() fails with a clear sentence when the client cannot sample.
      const result = sample(call.flow, 'reply', {
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 100,
      });
      return { text: `LLM response: ${answerText(result)}` };
    },
  }),
  defineTool({
    name: 'test_elicitation',
    title: 'Elicitation',
    description: 'Asks the user for a username and an email address.',
    input: z.object({ message: z.string().describe('The message to show the user') }),
    annotations: READ_ONLY,
    run({ message }, call) {
      const answer = askForm(call.flow, 'user', message, {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      });
      return { text: describeAnswer('User response', answer) };
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    title: 'Elicitation defaults',
    description: 'Asks a form whose every field has a default value (SEP-1034).',
    input: z.object({}),
    annotations: READ_ONLY,
    run(_args, call) {
      const answer = askForm(call.flow, 'defaults', 'Check the pre-filled values.', DEFAULTS_SCHEMA);
      return { text: describeAnswer('Elicitation completed', answer) };
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    title: 'Elicitation enums',
    description: 'Asks a form with every enum shape (SEP-1330).',
    input: z.object({}),
    annotations: READ_ONLY,
    run(_args, call) {
      const answer = askForm(call.flow, 'enums', 'Pick from each list.', ENUMS_SCHEMA);
      return { text: describeAnswer('Elicitation completed', answer) };
    },
  }),
];
