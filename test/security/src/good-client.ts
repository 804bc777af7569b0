/**
 * The other half of every attack: after it, a well-behaved SDK client of each era still opens a
 * session on the same process and lists its tools. A refusal that took the server down, wedged
 * it or poisoned shared state shows up here.
 */
import { connect } from '@mcpkit/core/testing';
import { expect } from 'vitest';
import type { Endpoint } from './requests.js';

/** Opens a session in `era`, lists tools, checks `tool` is among them, and ends the session. */
export async function listToolsAs(at: Endpoint, era: 'legacy' | 'modern', tool: string): Promise<void> {
  const session = await connect(undefined, {
    era,
    transport: {
      http: at.url,
      ...(at.token === undefined ? {} : { headers: { authorization: `Bearer ${at.token}` } }),
    },
  });
  try {
    expect(session.client.getProtocolEra()).toBe(era);
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toContain(tool);
  } finally {
    await session.close();
  }
}

/** Both eras, one after the other. */
export async function expectGoodClients(at: Endpoint, tool: string): Promise<void> {
  await listToolsAs(at, 'legacy', tool);
  await listToolsAs(at, 'modern', tool);
}
