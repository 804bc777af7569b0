import { inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { definePrompt } from './context.js';
import { RED_PIXEL_PNG } from './media.js';

const ContextAnswer = z.object({ context: z.string() });

/** The suite's prompts: core runs each (error mapping, multi-round flow, completion). */
export const fixturePrompts = [
  definePrompt({
    name: 'test_simple_prompt',
    title: 'Simple prompt',
    description: 'A prompt without arguments.',
    get: () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'A prompt with two arguments; the first is completable.',
    args: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
    complete: { arg1: () => ['paris', 'park', 'party'] },
    get: ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt with a resource',
    description: 'A prompt that embeds a resource.',
    args: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    get: ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  }),
  definePrompt({
    name: 'test_prompt_with_image',
    title: 'Prompt with an image',
    description: 'A prompt with an image.',
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    }),
  }),
  definePrompt({
    name: 'test_input_required_result_prompt',
    title: 'Input required: prompt',
    description: 'Asks the user for context before it is built (an input-required prompt).',
    get(_args, { flow }) {
      let context = 'no context (this client cannot ask the user)';
      if (flow.abilities.elicitForm) {
        const answer = flow.ask(
          'user_context',
          inputRequired.elicit({
            message: 'What context should the prompt use?',
            requestedSchema: {
              type: 'object',
              properties: { context: { type: 'string' } },
              required: ['context'],
            },
          }),
        );
        const parsed = answer.kind === 'elicit' ? ContextAnswer.safeParse(answer.content) : undefined;
        if (parsed?.success) context = parsed.data.context;
      }
      return {
        messages: [
          { role: 'user', content: { type: 'text', text: `Answer using this context: ${context}` } },
        ],
      };
    },
  }),
];
