import { UserError } from '@mcpkit/core/errors';
import type { Flow } from '@mcpkit/core/mrtr';
import { type ElicitRequestFormParams, inputRequired } from '@modelcontextprotocol/server';

export type FormSchema = ElicitRequestFormParams['requestedSchema'];

/** A form answer as the fixtures report it: what the user did, and what they filled in. */
export interface FormAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/**
 * Asks the user through core's flow, with the suite's exact wire schema (core's `ask` takes a zod
 * object, which cannot express SEP-1330's titled enums or keep SEP-1034 defaults verbatim).
 * A client without form elicitation gets an error result, as the scenarios require.
 */
export function askForm(flow: Flow, key: string, message: string, requestedSchema: FormSchema): FormAnswer {
  if (!flow.abilities.elicitForm) {
    throw new UserError('This client cannot ask the user (it did not declare form elicitation).');
  }
  const answer = flow.ask(key, inputRequired.elicit({ message, requestedSchema }));
  if (answer.kind !== 'elicit')
    throw new UserError('The client did not answer the question; retry the call.');
  return answer.content === undefined
    ? { action: answer.action }
    : { action: answer.action, content: answer.content };
}

/** The sentence the suite expects back from an elicitation fixture. */
export function describeAnswer(prefix: string, answer: FormAnswer): string {
  return `${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}
