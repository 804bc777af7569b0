import { defineTool, getPrompt, registerTool, type Scope } from '@mcpkit/core/server';
import * as z from 'zod';

const NO_ARGS = z.object({});

/**
 * What the list-change hooks change. It lives in the app, not in an instance: a 2026 HTTP request
 * gets a fresh instance, which must list what the last hook call left.
 */
export interface ListGenerations {
  tools: number;
  prompts: number;
}

/**
 * `test_trigger_tool_change` and `test_trigger_prompt_change` bump a generation that a dynamic
 * tool and prompt carry in their description, then announce the change through core's hub, which
 * reaches 2025 sessions and 2026 listen streams alike. Instances built afterwards list the new
 * description; a 2025 session keeps the set it started with.
 */
export function registerListChanges(scope: Scope, generations: ListGenerations): void {
  registerTool(
    scope,
    defineTool({
      name: 'test_trigger_tool_change',
      title: 'Change the tool list',
      description: 'Changes the tool list and sends tools/list_changed.',
      input: NO_ARGS,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      run(_args, call) {
        generations.tools++;
        call.scope.app.hub.listChanged('tools');
        return { text: `The tool list is now at generation ${generations.tools}.` };
      },
    }),
  );
  registerTool(
    scope,
    defineTool({
      name: 'test_trigger_prompt_change',
      title: 'Change the prompt list',
      description: 'Changes the prompt list and sends prompts/list_changed.',
      input: NO_ARGS,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      run(_args, call) {
        generations.prompts++;
        call.scope.app.hub.listChanged('prompts');
        return { text: `The prompt list is now at generation ${generations.prompts}.` };
      },
    }),
  );
  registerTool(
    scope,
    defineTool({
      name: 'test_dynamic_tool',
      title: 'Dynamic tool',
      description: `A tool that changes with the list (generation ${generations.tools}).`,
      input: NO_ARGS,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      run: () => ({ text: `Generation ${generations.tools}.` }),
    }),
  );
  scope.mcp.registerPrompt(
    'test_dynamic_prompt',
    { description: `A prompt that changes with the list (generation ${generations.prompts}).` },
    (ctx) =>
      getPrompt(scope, 'test_dynamic_prompt', {}, ctx, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Generation ${generations.prompts}.` } }],
      })),
  );
}
