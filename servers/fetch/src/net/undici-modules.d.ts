/**
 * Types of the undici modules undici-parts.ts imports one by one: each is the same value undici's
 * index exports (the index re-exports these modules), so it gets the index's declaration.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export default buildConnector;
}

declare module 'undici/lib/web/fetch/index.js' {
  import type { fetch } from 'undici';

  const fetchModule: { fetch: typeof fetch };
  export default fetchModule;
}
