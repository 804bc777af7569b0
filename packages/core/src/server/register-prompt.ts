/** @internal Puts a prompt definition on one instance. */
import {
  completable,
  type GetPromptResult,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { runFlow } from '../mrtr/flow.js';
import { callOf, lookupOf } from './call.js';
import { toProtocolError } from './protocol-errors.js';
import { completions } from './register-resource.js';
import type { AnyPrompt, Instance } from './types.js';

/**
 * The prompt's arguments with their completions attached. The SDK keeps a completion on the
 * schema object itself, and the candidates depend on this instance's roots, so each instance gets
 * copies of the completable fields; the others are shared.
 */
function argsFor(def: AnyPrompt, instance: Instance): z.ZodObject | undefined {
  if (!def.args || !def.complete) return def.args;
  const complete = completions(def.complete, lookupOf(instance));
  const shape: Record<string, z.ZodType> = { ...def.args.shape };
  for (const [name, callback] of Object.entries(complete)) {
    const field = shape[name];
    // The SDK types the callback by the field's value; prompt arguments are strings on the wire.
    if (field) {
      const copy = field.clone();
      completable(copy, callback as Parameters<typeof completable>[1]);
      shape[name] = copy;
    }
  }
  return z.object(shape);
}

export function registerPrompt(instance: Instance, def: AnyPrompt): void {
  const { app } = instance;
  const run = async (args: unknown, ctx: ServerContext): Promise<GetPromptResult | InputRequiredResult> => {
    try {
      return await runFlow(
        ctx,
        { era: instance.era, mcp: instance.mcp, codec: app.stateCodec, op: `prompts/get:${def.name}`, args },
        (flow) => def.get(args, callOf(instance, flow, ctx, def.name)),
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
