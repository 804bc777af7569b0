import { completer } from '@mcpkit/core/completion';
import { getPrompt, type Scope } from '@mcpkit/core/server';
import { completable, inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { RED_PIXEL_PNG } from './media.js';

const ContextAnswer = z.object({ context: z.string() });

/** The suite's prompts, each run through core's `getPrompt` (error mapping, multi-round flow). */
export function registerFixturePrompts(scope: Scope): void {
  const { mcp } = scope;
  mcp.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments.' }, (ctx) =>
    getPrompt(scope, 'test_simple_prompt', {}, ctx, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    })),
  );
  mcp.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments; the first is completable.',
      argsSchema: z.object({
        arg1: completable(
          z.string().describe('First test argument'),
          completer(() => ['paris', 'park', 'party']),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    (args, ctx) =>
      getPrompt(scope, 'test_prompt_with_arguments', args, ctx, () => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
            },
          },
        ],
      })),
  );
  mcp.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource.',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    (args, ctx) =>
      getPrompt(scope, 'test_prompt_with_embedded_resource', args, ctx, () => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: args.resourceUri,
                mimeType: 'text/plain',
                text: 'Embedded resource content for testing.',
              },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      })),
  );
  mcp.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image.' }, (ctx) =>
    getPrompt(scope, 'test_prompt_with_image', {}, ctx, () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    })),
  );
  mcp.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'Asks the user for context before it is built (an input-required prompt).' },
    (ctx) =>
      getPrompt(scope, 'test_input_required_result_prompt', {}, ctx, (flow) => {
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
      }),
  );
}
