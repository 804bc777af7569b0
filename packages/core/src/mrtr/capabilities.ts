import type { ClientCapabilities, McpServer, ServerContext } from '@modelcontextprotocol/server';

/** The protocol era an instance serves: `legacy` is 2025-11-25 and older, `modern` is 2026-07-28. */
export type Era = 'legacy' | 'modern';

const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * What the client said it can do, read where each era keeps it: the 2026 request envelope
 * (every request carries it), or the 2025 `initialize` handshake. `getClientCapabilities()` is
 * not filled under stdio in the 2026 era, so the envelope comes first.
 */
export function clientCapabilities(ctx: ServerContext, mcp: McpServer): ClientCapabilities {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = envelope?.[CAPS_KEY];
  if (fromEnvelope && typeof fromEnvelope === 'object') return fromEnvelope as ClientCapabilities;
  return mcp.server.getClientCapabilities() ?? {};
}

/** The questions handlers ask about a client before choosing a fallback. */
export interface ClientAbilities {
  roots: boolean;
  sampling: boolean;
  samplingWithTools: boolean;
  elicitForm: boolean;
}

/** Reduces capabilities to the yes/no answers handlers need. */
export function abilities(caps: ClientCapabilities): ClientAbilities {
  const elicitation = caps.elicitation as { form?: unknown; url?: unknown } | undefined;
  return {
    roots: caps.roots !== undefined,
    sampling: caps.sampling !== undefined,
    samplingWithTools: caps.sampling?.tools !== undefined,
    // A 2025-06-18 client declares `elicitation: {}`, which means form mode.
    elicitForm:
      elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined),
  };
}
