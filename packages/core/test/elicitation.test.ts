import { randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequestParams,
  type ElicitResult,
  InMemoryTransport,
} from '@modelcontextprotocol/client';
import { createRequestStateCodec, type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ask, confirm } from '../src/elicitation/confirm.js';
import { type FlowState, runFlow } from '../src/mrtr/flow.js';

const codec = createRequestStateCodec<FlowState>({ key: randomBytes(32) });
const eras = ['legacy', 'modern'] as const;
type Era = (typeof eras)[number];

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

const Profile = z.object({ name: z.string(), age: z.number().int() });

function buildServer(rc: McpRequestContext): McpServer {
  const mcp = new McpServer(
    { name: 'elicitation-test', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  mcp.registerTool(
    'delete',
    {
      description: 'Deletes a note after confirmation.',
      inputSchema: z.object({ path: z.string(), confirm: z.boolean().optional() }),
    },
    (args, ctx) =>
      runFlow(ctx, { era: rc.era, mcp, codec, op: 'tools/call:delete', args }, (flow) => {
        const ok = confirm(flow, { message: `Delete "${args.path}"?`, explicit: args.confirm });
        return { content: [{ type: 'text', text: `confirmed=${ok}` }] };
      }),
  );
  mcp.registerTool(
    'profile',
    { description: 'Asks for a profile.', inputSchema: z.object({}) },
    (args, ctx) =>
      runFlow(ctx, { era: rc.era, mcp, codec, op: 'tools/call:profile', args }, (flow) => {
        const got = ask(flow, { message: 'Who are you?', schema: Profile });
        return { content: [{ type: 'text', text: JSON.stringify(got ?? null) }] };
      }),
  );
  return mcp;
}

async function connect(
  era: Era,
  answer?: (params: ElicitRequestParams) => ElicitResult,
  capabilities: ClientCapabilities = answer ? { elicitation: { form: {} } } : {},
) {
  const client = new Client(
    { name: 'elicitation-test-client', version: '0.0.0' },
    {
      capabilities,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const asked: ElicitRequestParams[] = [];
  if (answer) {
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params);
      return answer(req.params);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio((rc) => buildServer(rc), { transport: serverSide });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await handle.close();
  });
  expect(client.getProtocolEra()).toBe(era);
  return {
    asked,
    async call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
      return (await client.callTool({ name, arguments: args })) as CallToolResult;
    },
  };
}

function text(result: CallToolResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe.each(eras)('confirm (%s era)', (era) => {
  it('returns true when the user accepts with confirm: true', async () => {
    const s = await connect(era, () => ({ action: 'accept', content: { confirm: true } }));
    const result = await s.call('delete', { path: 'notes/old' });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('confirmed=true');
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]?.message).toBe('Delete "notes/old"?');
    const schema = (s.asked[0] as { requestedSchema?: { properties?: Record<string, { type?: string }> } })
      .requestedSchema;
    expect(schema?.properties?.confirm?.type).toBe('boolean');
  });

  it.each(['decline', 'cancel'] as const)('returns false when the user chooses %s', async (action) => {
    const s = await connect(era, () => ({ action }));
    const result = await s.call('delete', { path: 'notes/old' });
    expect(text(result)).toBe('confirmed=false');
    expect(s.asked).toHaveLength(1);
  });

  it('returns false when the user accepts with confirm: false', async () => {
    const s = await connect(era, () => ({ action: 'accept', content: { confirm: false } }));
    expect(text(await s.call('delete', { path: 'notes/old' }))).toBe('confirmed=false');
  });

  it('trusts confirm: true from the call when the client cannot ask the user', async () => {
    const s = await connect(era);
    const result = await s.call('delete', { path: 'notes/old', confirm: true });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('confirmed=true');
  });

  it('fails with a sentence naming "confirm": true when the client cannot ask and the call did not confirm', async () => {
    const s = await connect(era);
    for (const args of [{ path: 'notes/old' }, { path: 'notes/old', confirm: false }]) {
      const result = await s.call('delete', args);
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        'Delete "notes/old"? This client cannot ask the user, so call again with "confirm": true once the user has agreed.',
      );
    }
  });

  it('asks the user even when the call says confirm: true, and the user decides', async () => {
    const s = await connect(era, () => ({ action: 'decline' }));
    const result = await s.call('delete', { path: 'notes/old', confirm: true });
    expect(text(result)).toBe('confirmed=false');
    expect(s.asked).toHaveLength(1);
  });

  it('does not treat a URL-only elicitation client as able to ask', async () => {
    const s = await connect(era, undefined, { elicitation: { url: {} } });
    expect(text(await s.call('delete', { path: 'p', confirm: true }))).toBe('confirmed=true');
  });
});

describe.each(eras)('ask (%s era)', (era) => {
  it('returns the validated form', async () => {
    const s = await connect(era, () => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
    expect(JSON.parse(text(await s.call('profile', {})))).toEqual({ name: 'Ada', age: 36 });
  });

  it('returns undefined when declined or unsupported', async () => {
    const declined = await connect(era, () => ({ action: 'decline' }));
    expect(text(await declined.call('profile', {}))).toBe('null');
    const unable = await connect(era);
    expect(text(await unable.call('profile', {}))).toBe('null');
  });

  it('fails with a sentence when the accepted form does not match the schema', async () => {
    const s = await connect(era, () => ({ action: 'accept', content: { name: 'Ada', age: 36.5 } }));
    const result = await s.call('profile', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('The answer did not match the form; try again.');
  });
});
