import * as z from 'zod';
import { definePrompt, defineTool, type Generations } from './context.js';

const NO_ARGS = z.object({});
const CHANGES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/**
 * `test_trigger_tool_change` and `test_trigger_prompt_change` bump a generation (kept in the app's
 * context) and announce the change through core's hub, which reaches 2025 sessions and 2026 listen
 * streams alike. They never change the list themselves, so they are the same for every app.
 */
export const listChangeTriggers = [
  defineTool({
    name: 'test_trigger_tool_change',
    title: 'Change the tool list',
    description: 'Changes the tool list and sends tools/list_changed.',
    input: NO_ARGS,
    annotations: CHANGES,
    run(_args, call) {
      const generation = ++call.context.generations.tools;
      call.app.hub.listChanged('tools');
      return { text: `The tool list is now at generation ${generation}.` };
    },
  }),
  defineTool({
    name: 'test_trigger_prompt_change',
    title: 'Change the prompt list',
    description: 'Changes the prompt list and sends prompts/list_changed.',
    input: NO_ARGS,
    annotations: CHANGES,
    run(_args, call) {
      const generation = ++call.context.generations.prompts;
      call.app.hub.listChanged('prompts');
      return { text: `The prompt list is now at generation ${generation}.` };
    },
  }),
];

/**
 * The tool and the prompt that change with the lists: each carries its generation in its
 * description. A description is read when an instance registers the definition, before any call
 * and so without a call's context; these are therefore made per app, around the same generations
 * the app's context holds, and their descriptions are getters. Instances built after a change
 * (every 2026 HTTP request) list the new description; a 2025 session keeps the set it started with.
 */
export function dynamicFixtures(generations: Generations) {
  return {
    tool: defineTool({
      name: 'test_dynamic_tool',
      title: 'Dynamic tool',
      get description() {
        return `A tool that changes with the list (generation ${generations.tools}).`;
      },
      input: NO_ARGS,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: (_args, call) => ({ text: `Generation ${call.context.generations.tools}.` }),
    }),
    prompt: definePrompt({
      name: 'test_dynamic_prompt',
      title: 'Dynamic prompt',
      get description() {
        return `A prompt that changes with the list (generation ${generations.prompts}).`;
      },
      get: (_args, call) => ({
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Generation ${call.context.generations.prompts}.` },
          },
        ],
      }),
    }),
  };
}
