import type { ServerContext } from '@modelcontextprotocol/server';

/**
 * Whom a task belongs to: the authenticated client of the request that created it. Without
 * authentication (stdio, or a loopback HTTP server without a token) every caller is the same
 * anonymous principal, and the unguessable task id is what keeps tasks apart.
 */
export function principalOf(ctx: ServerContext): string {
  const clientId = ctx.http?.authInfo?.clientId;
  return clientId === undefined ? '' : `client:${clientId}`;
}
