import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { startHttpServer } from '../src/runner/http-server.js';
import { createLogger } from '../src/logging/logger.js';

const factory = () => {
  const mcp = new McpServer({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  mcp.registerTool('echo', { description: 'echo', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return mcp;
};
const http = await startHttpServer({ factory, log: createLogger({ level: 'debug' }) });
for (const era of ['legacy', 'modern'] as const) {
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    fetch: async (input, init) => {
      console.log('>>', init?.method, JSON.stringify(Object.fromEntries(new Headers(init?.headers).entries())), typeof init?.body === 'string' ? init.body.slice(0, 400) : '');
      const r = await fetch(input, init);
      console.log('<<', r.status, r.headers.get('content-type'));
      return r;
    },
  });
  const client = new Client({ name: 'c', version: '0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(transport);
  console.log(era, client.getProtocolEra?.(), await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
  if (era === 'legacy') await transport.terminateSession();
  await client.close();
}
console.log('sessions', http.sessionCount);
await http.close();
