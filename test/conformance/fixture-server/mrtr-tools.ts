import { UserError } from '@mcpkit/core/errors';
import { readAnswer } from '@mcpkit/core/mrtr';
import { answerText, sample } from '@mcpkit/core/sampling';
import { type InputRequest, inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { askForm, type FormSchema } from './ask.js';
import { defineTool, type FixtureCall } from './context.js';

const NO_ARGS = z.object({});
const READ_ONLY = { readOnlyHint: true, idempotentHint: false, openWorldHint: false } as const;

const field = (name: string, type: 'string' | 'boolean'): FormSchema => ({
  type: 'object',
  properties: { [name]: type === 'string' ? { type: 'string' } : { type: 'boolean' } },
  required: [name],
});

const NAME_FORM = field('name', 'string');
const NameAnswer = z.object({ name: z.string() });

function nameQuestion(message: string): InputRequest {
  return inputRequired.elicit({ message, requestedSchema: NAME_FORM });
}

function rootsOf(call: FixtureCall, key: string): string[] {
  if (!call.flow.abilities.roots) throw new UserError('This client does not offer roots.');
  const answer = call.flow.ask(key, inputRequired.listRoots());
  return answer.kind === 'roots' ? answer.uris : [];
}

/**
 * The SEP-2322 (input-required result) fixtures. Each is an ordinary core tool: core's flow signs
 * the state, validates every answer and re-asks for what is missing; these only choose what to ask.
 */
export const mrtrTools = [
  defineTool({
    name: 'test_input_required_result_elicitation',
    title: 'Input required: elicitation',
    description: 'Asks the user for a name, then greets them.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      // The suite also sends this tool an answer with no requestState (beside unknown keys, or
      // malformed); the answer is then read from this round alone, validated the same way.
      const answer =
        readAnswer(call.ctx.mcpReq.inputResponses, 'user_name', 'elicit') ??
        call.flow.ask('user_name', nameQuestion('What is your name?'));
      const content = answer.kind === 'elicit' && answer.action === 'accept' ? answer.content : undefined;
      const parsed = NameAnswer.safeParse(content);
      return { text: parsed.success ? `Hello, ${parsed.data.name}!` : 'Hello, whoever you are!' };
    },
  }),
  defineTool({
    name: 'test_input_required_result_sampling',
    title: 'Input required: sampling',
    description: "Asks the client's model a question and returns its answer.",
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const result = sample(call.flow, 'capital_question', {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      });
      return { text: `The model says: ${answerText(result)}` };
    },
  }),
  defineTool({
    name: 'test_input_required_result_list_roots',
    title: 'Input required: roots',
    description: 'Asks the client for its roots and lists them.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const roots = rootsOf(call, 'client_roots');
      return { text: `The client shares ${roots.length} root(s): ${roots.join(', ') || '(none)'}.` };
    },
  }),
  defineTool({
    name: 'test_input_required_result_request_state',
    title: 'Input required: request state',
    description: 'Asks for a confirmation; the answer only counts with the signed state it was asked under.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const answer = askForm(call.flow, 'confirm', 'Please confirm', field('ok', 'boolean'));
      // Reaching this line on a retry means core verified the signed requestState.
      return { text: `state-ok: the requestState was verified (action=${answer.action}).` };
    },
  }),
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    title: 'Input required: several questions',
    description: 'Asks for a name, a model greeting and the roots in one round.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const { abilities } = call.flow;
      const asks: Record<string, InputRequest> = {};
      if (abilities.elicitForm) asks.user_name = nameQuestion('What is your name?');
      if (abilities.sampling) {
        asks.greeting = inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
          maxTokens: 50,
        });
      }
      if (abilities.roots) asks.client_roots = inputRequired.listRoots();
      const answers = call.flow.askAll(asks);
      return {
        text: `Received ${Object.keys(answers).length} answer(s): ${Object.keys(answers).join(', ')}.`,
      };
    },
  }),
  defineTool({
    name: 'test_input_required_result_multi_round',
    title: 'Input required: two rounds',
    description: 'Asks for a name, then, in a second round, for a favourite colour.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const first = askForm(call.flow, 'step1', 'Step 1: What is your name?', NAME_FORM);
      const second = askForm(
        call.flow,
        'step2',
        'Step 2: What is your favorite color?',
        field('color', 'string'),
      );
      return {
        text: `Both steps answered: ${JSON.stringify(first.content ?? {})} ${JSON.stringify(second.content ?? {})}`,
      };
    },
  }),
  defineTool({
    name: 'test_input_required_result_tampered_state',
    title: 'Input required: signed state',
    description: 'Asks for a confirmation; a retry with altered state is refused before this tool runs.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const answer = askForm(call.flow, 'confirm', 'Please confirm', field('ok', 'boolean'));
      return { text: `Confirmed with untampered state (action=${answer.action}).` };
    },
  }),
  defineTool({
    name: 'test_input_required_result_capabilities',
    title: 'Input required: capabilities',
    description: 'Asks only what the client declared it can answer.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run(_args, call) {
      const { abilities } = call.flow;
      const asks: Record<string, InputRequest> = {};
      if (abilities.sampling) {
        asks.summary = inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
          maxTokens: 20,
        });
      }
      if (abilities.elicitForm) asks.user_name = nameQuestion('What is your name?');
      if (Object.keys(asks).length === 0)
        return { text: 'This client can answer nothing, so nothing was asked.' };
      const answers = call.flow.askAll(asks);
      return { text: `Asked only what the client supports: ${Object.keys(answers).join(', ')}.` };
    },
  }),
];
