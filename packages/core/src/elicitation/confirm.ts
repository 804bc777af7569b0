import { inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { UserError } from '../errors/index.js';
import type { Flow } from '../mrtr/flow.js';

const ConfirmSchema = z.object({
  confirm: z.boolean().describe('Check to go ahead'),
});

export interface ConfirmOptions {
  /** The question, naming exactly what will happen: `Delete "notes/old" and its 12 entries?` */
  message: string;
  /** The tool's own `confirm` argument: used only when the client cannot ask the user. */
  explicit?: boolean | undefined;
  /** Key of the question within the call, when a call asks more than one. */
  key?: string;
}

/**
 * Asks the user to confirm a destructive step. When the client supports form elicitation the
 * user is asked, whatever the model passed: `confirm: true` from the model is not consent. When it
 * cannot, the call must carry `confirm: true`; otherwise it fails with a sentence that says so.
 * Returns `false` when the user declines or cancels.
 *
 * @example
 * ```ts
 * function run(args: { path: string; confirm?: boolean }, call: Call): ToolOutput {
 *   if (!confirm(call.flow, { message: `Overwrite "${args.path}"?`, explicit: args.confirm })) {
 *     return { text: 'Nothing was changed: the user declined.' };
 *   }
 *   return { text: `Overwrote "${args.path}".` };
 * }
 * ```
 */
export function confirm(flow: Flow, options: ConfirmOptions): boolean {
  if (!flow.abilities.elicitForm) {
    if (options.explicit === true) return true;
    throw new UserError(
      `${options.message} This client cannot ask the user, so call again with "confirm": true once the user has agreed.`,
    );
  }
  const answer = flow.ask(
    options.key ?? 'confirm',
    inputRequired.elicit({ message: options.message, requestedSchema: ConfirmSchema }),
  );
  if (answer.kind !== 'elicit' || answer.action !== 'accept') return false;
  return ConfirmSchema.safeParse(answer.content).data?.confirm === true;
}

export interface AskOptions<S extends z.ZodObject> {
  message: string;
  schema: S;
  key?: string;
}

/**
 * Asks the user to fill a small form (flat object of strings, numbers, booleans and enums).
 * Returns the validated content, or `undefined` when declined, cancelled or unsupported.
 */
export function ask<S extends z.ZodObject>(flow: Flow, options: AskOptions<S>): z.infer<S> | undefined {
  if (!flow.abilities.elicitForm) return undefined;
  const answer = flow.ask(
    options.key ?? 'ask',
    inputRequired.elicit({ message: options.message, requestedSchema: options.schema }),
  );
  if (answer.kind !== 'elicit' || answer.action !== 'accept') return undefined;
  const parsed = options.schema.safeParse(answer.content);
  if (!parsed.success) throw new UserError('The answer did not match the form; try again.');
  return parsed.data;
}
