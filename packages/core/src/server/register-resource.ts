/** @internal Puts a resource or resource template definition on one instance. */
import {
  type InputRequiredResult,
  isInputRequiredResult,
  type ReadResourceResult,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { completer } from '../completion/completer.js';
import { errorMessage } from '../errors/index.js';
import { runFlow } from '../mrtr/flow.js';
import { callOf, lookupOf } from './call.js';
import { toProtocolError } from './protocol-errors.js';
import { boundRead } from './read-budget.js';
import type { AnyResource, Call, Complete, Instance, Lookup, ResourceTemplateDefinition } from './types.js';

/**
 * Runs a read inside a multi-round flow (so it can ask for roots in the 2026 era), holds it to the
 * output budget, and maps failures to JSON-RPC errors: `NotFound` is the protocol's not-found.
 */
async function read(
  instance: Instance,
  name: string,
  uri: URL,
  ctx: ServerContext,
  body: (call: Call<unknown>) => Promise<ReadResourceResult> | ReadResourceResult,
): Promise<ReadResourceResult | InputRequiredResult> {
  return instance.calls.track(readIn(instance, name, uri, ctx, body));
}

async function readIn(
  instance: Instance,
  name: string,
  uri: URL,
  ctx: ServerContext,
  body: (call: Call<unknown>) => Promise<ReadResourceResult> | ReadResourceResult,
): Promise<ReadResourceResult | InputRequiredResult> {
  const { app } = instance;
  try {
    const result = await runFlow(
      ctx,
      { era: instance.era, mcp: instance.mcp, codec: app.stateCodec, op: 'resources/read', args: uri.href },
      (flow) => body(callOf(instance, flow, ctx, name)),
    );
    return isInputRequiredResult(result) ? result : boundRead(result, app.outputLimitBytes);
  } catch (error) {
    return toProtocolError(app.log, `Reading ${uri.protocol} resource`, error, uri.href);
  }
}

/** A definition's completion sources as the SDK takes them: ranked, capped, bound to the instance. */
export function completions(
  sources: Record<string, Complete<unknown> | undefined> | undefined,
  lookup: Lookup<unknown>,
): Record<string, ReturnType<typeof completer>> {
  const out: Record<string, ReturnType<typeof completer>> = {};
  for (const [name, source] of Object.entries(sources ?? {})) {
    if (!source) continue;
    out[name] = completer(async (typed, context) => {
      try {
        return await source(typed, lookup, context);
      } catch (error) {
        // A completion is a convenience: one that fails offers nothing, and says why only in the log.
        lookup.app.log.debug(`completing ${name} failed: ${errorMessage(error)}`);
        return [];
      }
    });
  }
  return out;
}

function template(def: ResourceTemplateDefinition<unknown>, lookup: Lookup<unknown>): ResourceTemplate {
  const list = def.list;
  return new ResourceTemplate(def.uriTemplate, {
    list: list
      ? async () => {
          try {
            return { resources: await list(lookup) };
          } catch (error) {
            return toProtocolError(lookup.app.log, `Listing ${def.name} resources`, error);
          }
        }
      : undefined,
    complete: completions(def.complete, lookup),
  });
}

export function registerResource(instance: Instance, def: AnyResource): void {
  const metadata = {
    title: def.title,
    description: def.description,
    ...(def.mimeType ? { mimeType: def.mimeType } : {}),
  };
  if ('uri' in def) {
    instance.mcp.registerResource(def.name, def.uri, metadata, (uri, ctx) =>
      read(instance, def.name, uri, ctx, (call) => def.read(uri, call)),
    );
    return;
  }
  instance.mcp.registerResource(
    def.name,
    template(def, lookupOf(instance)),
    metadata,
    (uri, variables, ctx) => read(instance, def.name, uri, ctx, (call) => def.read(uri, variables, call)),
  );
}
