import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '@mcpkit/core/errors';
import type { Answer } from '@mcpkit/core/mrtr';
import {
  type InputRequest,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { FormSchema } from './ask.js';
import { defineTool, type FixtureCall } from './context.js';

const NO_ARGS = z.object({});
// None of these touch anything: they only model work of different shapes.
const READ_ONLY = { readOnlyHint: true, idempotentHint: false, openWorldHint: false } as const;

function question(message: string, properties: FormSchema['properties']): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties, required: Object.keys(properties) },
  });
}

const NAME_QUESTION = question('What is your name?', { name: { type: 'string' } });

/** What the user filled in, when they accepted. */
function filledIn(answer: Answer | undefined): Record<string, unknown> | undefined {
  return answer?.kind === 'elicit' && answer.action === 'accept' ? answer.content : undefined;
}

function askName(call: FixtureCall): string {
  const name = filledIn(call.flow.ask('user_name', NAME_QUESTION))?.name;
  return typeof name === 'string' ? name : 'whoever you are';
}

/**
 * The SEP-2663 (tasks extension) fixtures. Each is an ordinary core tool with `task` set: core
 * decides per call whether it becomes a task, keeps it, and carries its questions and its
 * cancellation; these only model work of different shapes.
 */
export const taskTools = [
  defineTool({
    name: 'greet',
    title: 'Greet',
    description: 'Greets someone by name, synchronously (never a task).',
    input: z.object({ name: z.string() }),
    annotations: { ...READ_ONLY, idempotentHint: true },
    run: ({ name }) => ({ text: `Hello, ${name}!` }),
  }),
  defineTool({
    name: 'slow_compute',
    title: 'Slow compute',
    description: 'Works for the given number of seconds, then reports; stops at once when cancelled.',
    input: z.object({ seconds: z.number().min(0).max(600), label: z.string().max(200).optional() }),
    annotations: READ_ONLY,
    task: 'optional',
    async run({ seconds, label }, call) {
      await sleep(seconds * 1000, undefined, { signal: call.signal });
      return { text: `Computed ${label ?? 'result'} in ${seconds} s.` };
    },
  }),
  defineTool({
    name: 'failing_job',
    title: 'Failing job',
    description: 'Runs only as a task and always ends in a tool error after about a second.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    task: 'required',
    async run(_args, call) {
      await sleep(1000, undefined, { signal: call.signal });
      throw new UserError('The job failed on purpose; there is nothing to retry.');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    title: 'Protocol error job',
    description: 'Fails with a JSON-RPC internal error, so its task ends as failed.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    task: 'optional',
    run() {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'The job hit an internal error on purpose.');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    title: 'Confirm delete',
    description: 'Asks the user to confirm deleting a file name; deletes nothing.',
    input: z.object({ filename: z.string().max(200) }),
    annotations: READ_ONLY,
    task: 'optional',
    run({ filename }, call) {
      const confirm = question(`Delete ${filename}?`, { confirm: { type: 'boolean' } });
      const confirmed = filledIn(call.flow.ask('confirm_delete', confirm))?.confirm === true;
      return { text: confirmed ? `Confirmed: ${filename} would be deleted.` : `Kept ${filename}.` };
    },
  }),
  defineTool({
    name: 'multi_input',
    title: 'Two questions',
    description: 'Asks two questions at once and reports both answers.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    task: 'optional',
    run(_args, call) {
      const fields: FormSchema['properties'] = { name: { type: 'string' }, confirm: { type: 'boolean' } };
      const got = call.flow.askAll({
        first_input: question('First: your name, and do you confirm?', fields),
        second_input: question('Second: your name, and do you confirm?', fields),
      });
      const names = [got.first_input, got.second_input].map((a) => String(filledIn(a)?.name ?? '?'));
      return { text: `Both answered: ${names.join(' and ')}.` };
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    title: 'Question, then task',
    description: 'Asks for a name in the call itself, then greets as a task.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    task: 'required',
    beforeTask(_args, call) {
      askName(call);
    },
    run: (_args, call) => ({ text: `Hello, ${askName(call)}, from a task!` }),
  }),
];
