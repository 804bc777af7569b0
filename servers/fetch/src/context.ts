import { type Call, type Lookup, withContext } from '@mcpkit/core/server';
import type { PageCache } from './cache/page-cache.js';
import type { AddressPolicy } from './net/address-policy.js';
import type { GuardedClient } from './net/guarded-client.js';
import type { RobotsChecker } from './robots/robots-checker.js';

/**
 * The fetch server's own state, made once per app: the guarded HTTP client (every connection it
 * makes is checked against the address policy), robots.txt, and the page cache that serves page 2
 * of a document and backs the `fetch://cache/…` resources.
 */
export interface FetchContext {
  /** The only way this server reaches the network. */
  readonly client: GuardedClient;
  /** Public internet plus what the operator allowed with --allow-host and --allow-cidr. */
  readonly policy: AddressPolicy;
  /** robots.txt for tool calls; `undefined` when the operator gave --ignore-robots-txt. */
  readonly robots: RobotsChecker | undefined;
  /**
   * Fetched pages, revalidated with conditional GETs once stale. It dispatches `'stored'` when an
   * entry changes, which the cache resources announce (resources/cache-notifications.ts).
   */
  readonly pages: PageCache;
}

export const { defineTool, definePrompt, defineResource, defineResourceTemplate } =
  withContext<FetchContext>();

/** What every fetch handler gets. */
export type FetchCall = Call<FetchContext>;
/** What fetch listings and completions get. */
export type FetchLookup = Lookup<FetchContext>;
