import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  inputRequired,
} from '@modelcontextprotocol/server';
import { UserError } from '../errors/index.js';
import type { Flow } from '../mrtr/flow.js';

/** Raised when the client cannot sample; tools catch it to take their no-model path. */
export class SamplingUnavailableError extends UserError {}

/**
 * Asks the client's model once. Throws {@link SamplingUnavailableError} when the client did not
 * declare sampling, so the caller can fall back (return the raw material instead of a summary).
 */
export function sample(
  flow: Flow,
  key: string,
  params: CreateMessageRequestParams,
): CreateMessageResult | CreateMessageResultWithTools {
  if (!flow.abilities.sampling) {
    throw new SamplingUnavailableError(
      'This client does not offer sampling, so the server cannot ask its model.',
    );
  }
  const answer = flow.ask(key, inputRequired.createMessage(params));
  if (answer.kind !== 'sampling')
    throw new UserError('The client did not return a model answer; retry the call.');
  return answer.result;
}

/** The text blocks of a model answer, joined. */
export function answerText(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks
    .filter((b): b is Extract<typeof b, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}
