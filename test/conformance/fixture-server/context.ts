import { type Call, withContext } from '@mcpkit/core/server';

/**
 * What the list-change hooks change: a generation each for the tool and the prompt list. It lives
 * in the app, not in an instance, since a 2026 HTTP request gets a fresh instance, which must list
 * what the last hook call left.
 */
export interface Generations {
  tools: number;
  prompts: number;
}

/** The fixture server's state, made once per app: only the list generations. */
export interface FixtureContext {
  readonly generations: Generations;
}

/** The `define…` functions with `call.context` typed as {@link FixtureContext}. */
export const { defineTool, definePrompt, defineResource, defineResourceTemplate } =
  withContext<FixtureContext>();

/** What every fixture handler gets. */
export type FixtureCall = Call<FixtureContext>;
