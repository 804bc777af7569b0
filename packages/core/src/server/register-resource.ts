/** @internal Puts a resource or resource template definition on one instance. */
import {
  type InputRequiredResult,
  isInputRequiredResult,
  type ReadResourceResult,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { lookupOf, runCall } from './call.js';
import { completions } from './completions.js';
import { toProtocolError } from './protocol-errors.js';
import { boundRead } from './read-budget.js';
import type { AnyResource, Call, Instance, Lookup, ResourceTemplateDefinition } from './types.js';

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
  const { app } = instance;
  try {
    const result = await runCall(instance, ctx, 'resources/read', uri.href, name, body);
    return isInputRequiredResult(result) ? result : boundRead(result, app.outputLimitBytes);
  } catch (error) {
    return toProtocolError(app.log, `Reading ${uri.protocol} resource`, error, uri.href);
  }
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
