/**
 * The guarded client imports undici's Agent, connector and fetch from their own modules
 * (net/undici-parts.ts), not from undici's index. They must be what the index exports, so the
 * types the code is checked against (undici's index declarations) describe what runs, and an
 * upgrade that moves a module fails here rather than in a user's fetch.
 */
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Agent, buildConnector, fetch } from '../src/net/undici-parts.js';
import { startServer, text } from './support/local-server.js';

describe("undici's parts", () => {
  it('are the Agent and connector undici exports', () => {
    expect(Agent).toBe(undici.Agent);
    expect(buildConnector).toBe(undici.buildConnector);
  });

  it('fetch through the Agent, answering with the Response and Headers undici exports', async () => {
    const site = await startServer({ '/page': text('hello', 'text/plain') });
    const agent = new Agent();
    try {
      const response = await fetch(site.url('/page'), { dispatcher: agent, redirect: 'manual' });
      expect(response).toBeInstanceOf(undici.Response);
      expect(response.headers).toBeInstanceOf(undici.Headers);
      expect(await response.text()).toBe('hello');
    } finally {
      await agent.close();
      await site.close();
    }
  });
});
