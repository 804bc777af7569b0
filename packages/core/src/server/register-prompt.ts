/** @internal Puts a prompt definition on one instance. */
import {
  completable,
  type GetPromptResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { lookupOf, runCall } from './call.js';
import { completions } from './completions.js';
import { toProtocolError } from './protocol-errors.js';
import type { AnyPrompt, Instance } from './types.js';

/**
 * The prompt's arguments with their completions attached. The SDK keeps a completion on the
 * schema object itself, and the candidates depend on this instance's roots, so each instance gets
 * copies of the completable fields; the rest of the schema (other fields, refinements,
 * strictness) is kept as written. The SDK looks for the completion inside an optional field, so
 * that is where it goes.
 */
function argsFor(def: AnyPrompt, instance: Instance): z.ZodObject | undefined {
  if (!def.args || !def.complete) return def.args;
  const complete = completions(def.complete, lookupOf(instance));
  const fields: Record<string, z.ZodType> = {};
  for (const [name, callback] of Object.entries(complete)) {
    const field = def.args.shape[name] as z.ZodType | undefined;
    if (field) fields[name] = withCompletion(field, callback as Parameters<typeof completable>[1]);
  }
  return def.args.safeExtend(fields);
}

function withCompletion(field: z.ZodType, callback: Parameters<typeof completable>[1]): z.ZodType {
  if (field instanceof z.ZodOptional) {
    const inner = (field.unwrap() as z.ZodType).clone();
    completable(inner, callback);
    const optional = inner.optional();
    return field.description === undefined ? optional : optional.describe(field.description);
  }
  const copy = field.clone();
  completable(copy, callback);
  return copy;
}

export function registerPrompt(instance: Instance, def: AnyPrompt): void {
  const { app } = instance;
  const run = async (args: unknown, ctx: ServerContext): Promise<GetPromptResult | InputRequiredResult> => {
    try {
      return await runCall(instance, ctx, `prompts/get:${def.name}`, args, def.name, (call) =>
        def.get(args, call),
      );
    } catch (error) {
      return toProtocolError(app.log, `Prompt ${def.name}`, error);
    }
  };
  const config = { title: def.title, description: def.description };
  const args = argsFor(def, instance);
  if (args) instance.mcp.registerPrompt(def.name, { ...config, argsSchema: args }, run);
  else instance.mcp.registerPrompt(def.name, config, (ctx) => run({}, ctx));
}
