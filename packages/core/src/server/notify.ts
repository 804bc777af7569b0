import type { McpServer } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isUserError } from '../errors/index.js';
import type { SubscriptionHub } from '../subscriptions/index.js';

/**
 * The 2025-era `resources/subscribe` and `unsubscribe` handlers McpServer lacks. The hub keeps
 * the interest per instance (`owner`), starts a watch on the first subscriber and stops it on
 * the last; the instance's close releases everything it held.
 */
export function installLegacySubscriptions(mcp: McpServer, hub: SubscriptionHub, owner: object): void {
  mcp.server.setRequestHandler('resources/subscribe', async (req) => {
    try {
      await hub.acquire(owner, req.params.uri);
    } catch (error) {
      if (isUserError(error))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { uri: req.params.uri });
      throw error;
    }
    return {};
  });
  mcp.server.setRequestHandler('resources/unsubscribe', async (req) => {
    await hub.release(owner, req.params.uri);
    return {};
  });
}

/**
 * Registers a long-lived instance as a delivery target. A 2025 instance (with `owner`) hears
 * about URIs it subscribed to; a 2026 stdio instance hears everything and the SDK's listen
 * router filters by each stream's subscriptions.
 */
export function registerTarget(mcp: McpServer, hub: SubscriptionHub, owner: object | undefined): void {
  const remove = hub.addTarget(
    {
      resourceUpdated: async (uri) => {
        if (mcp.isConnected()) await mcp.server.sendResourceUpdated({ uri });
      },
      listChanged: (kind) => {
        // Only for a kind this server offers (an app without resources still hears the roots
        // change that resources follow); the SDK's own senders leave a refusal, or a connection
        // closing meanwhile, as an unhandled rejection.
        if (!mcp.isConnected() || !mcp.server.getCapabilities()[kind]?.listChanged) return;
        const sent =
          kind === 'tools'
            ? mcp.server.sendToolListChanged()
            : kind === 'prompts'
              ? mcp.server.sendPromptListChanged()
              : mcp.server.sendResourceListChanged();
        sent.catch(() => {});
      },
    },
    owner ? { owner } : {},
  );
  const previous = mcp.server.onclose;
  mcp.server.onclose = () => {
    previous?.();
    remove();
    if (owner) void hub.releaseOwner(owner);
  };
}
