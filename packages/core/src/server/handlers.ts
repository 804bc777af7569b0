import {
  type GetPromptResult,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isUserError, UserError } from '../errors/index.js';
import { truncateText } from '../limits/index.js';
import { type Flow, runFlow } from '../mrtr/flow.js';
import type { Scope } from './app.js';

/** Raised by a resource read for a URI that names nothing; becomes -32602 with `data.uri`. */
export class NotFound extends Error {}

function toProtocolError(scope: Scope, what: string, error: unknown, uri?: string): never {
  if (error instanceof ProtocolError) throw error;
  if (error instanceof NotFound && uri) throw new ResourceNotFoundError(uri);
  if (isUserError(error)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, uri ? { uri } : undefined);
  }
  scope.app.log.error(
    `${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  throw new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed because of an internal error.`);
}

/**
 * Runs a resource read inside a multi-round flow (so it can ask for roots in the 2026 era) and
 * maps failures to JSON-RPC errors: a `UserError` keeps its sentence, anything else is internal.
 */
export async function readResource(
  scope: Scope,
  uri: URL,
  ctx: ServerContext,
  body: (flow: Flow) => Promise<ReadResourceResult> | ReadResourceResult,
): Promise<ReadResourceResult | InputRequiredResult> {
  try {
    const result = await runFlow(
      ctx,
      { era: scope.era, mcp: scope.mcp, codec: scope.app.stateCodec, op: 'resources/read', args: uri.href },
      body,
    );
    return isInputRequiredResult(result) ? result : bound(result, scope.app.outputLimitBytes);
  } catch (error) {
    return toProtocolError(scope, `Reading ${uri.protocol} resource`, error, uri.href);
  }
}

/**
 * Holds a resource read to the output budget: text beyond it is cut with a notice, and a blob
 * beyond it is refused, since half an image is no use. One budget for all contents of the read.
 */
function bound(result: ReadResourceResult, limit: number): ReadResourceResult {
  let left = limit;
  const contents = result.contents.map((c) => {
    if ('text' in c && typeof c.text === 'string') {
      const cut = truncateText(c.text, Math.max(left, 1024), {
        continuation: 'Resources are read whole; use a tool that reads a range to get the rest.',
      });
      left = Math.max(0, left - cut.shownBytes);
      return cut.truncated ? { ...c, text: cut.text } : c;
    }
    if ('blob' in c && typeof c.blob === 'string') {
      const size = c.blob.length;
      if (size > left) {
        throw new UserError(
          `This resource is about ${Math.round((size * 3) / 4)} bytes, more than the ${limit}-byte limit of one read.`,
        );
      }
      left -= size;
    }
    return c;
  });
  return { ...result, contents };
}

/** Runs a prompt inside a multi-round flow with the same error mapping as {@link readResource}. */
export async function getPrompt(
  scope: Scope,
  name: string,
  args: unknown,
  ctx: ServerContext,
  body: (flow: Flow) => Promise<GetPromptResult> | GetPromptResult,
): Promise<GetPromptResult | InputRequiredResult> {
  try {
    return await runFlow(
      ctx,
      { era: scope.era, mcp: scope.mcp, codec: scope.app.stateCodec, op: `prompts/get:${name}`, args },
      body,
    );
  } catch (error) {
    return toProtocolError(scope, `Prompt ${name}`, error);
  }
}
