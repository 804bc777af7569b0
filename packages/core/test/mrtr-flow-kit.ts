/**
 * The server and client the runFlow tests (mrtr-flow-*.test.ts) share: tools that ask for roots, a
 * model's answer and a confirmation, in one round or several, over an in-memory connection in
 * either era; and how often each handler was entered.
 */
import { randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  InMemoryTransport,
} from '@modelcontextprotocol/client';
import {
  createRequestStateCodec,
  inputRequired,
  type McpRequestContext,
  McpServer,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { expect } from 'vitest';
import * as z from 'zod';
import type { Answer } from '../src/mrtr/answers.js';
import { type Flow, type FlowState, runFlow } from '../src/mrtr/flow.js';

export const codec = createRequestStateCodec<FlowState>({ key: randomBytes(32) });
export const eras = ['legacy', 'modern'] as const;
export type Era = (typeof eras)[number];

/** How often each tool's handler was entered: one entry per round plus the final one. */
export const entries: Record<string, number> = {};
/** Closers of every client and server a test connected. */
export const open: Array<() => Promise<void>> = [];

/** Forgets the entries counted so far (before each test). */
export function forgetEntries(): void {
  for (const name of Object.keys(entries)) delete entries[name];
}

/** Closes every client and server a test connected (after each test). */
export async function closeOpen(): Promise<void> {
  for (const close of open.splice(0)) await close();
}

const text = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
});

function roots(answer: Answer): string[] {
  if (answer.kind !== 'roots') throw new Error(`expected roots, got ${answer.kind}`);
  return answer.uris;
}

function modelText(answer: Answer): string {
  if (answer.kind !== 'sampling') throw new Error(`expected sampling, got ${answer.kind}`);
  const blocks = Array.isArray(answer.result.content) ? answer.result.content : [answer.result.content];
  return blocks.map((b) => (b.type === 'text' ? b.text : `<${b.type}>`)).join('');
}

const ask = (text: string) =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text } }],
    maxTokens: 20,
  });

const Confirm = z.object({ confirm: z.boolean() });

function pair(flow: Flow, topic: string): CallToolResult {
  const got = flow.askAll({ where: inputRequired.listRoots(), model: ask(`Summarise ${topic}`) });
  return text({ roots: roots(got.where!), model: modelText(got.model!), round: flow.round });
}

export function buildServer(rc: McpRequestContext): McpServer {
  const mcp = new McpServer(
    { name: 'mrtr-test', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  const flowTool = (name: string, body: (flow: Flow, topic: string) => CallToolResult) =>
    mcp.registerTool(
      name,
      { description: `${name} test tool`, inputSchema: z.object({ topic: z.string() }) },
      (args, ctx) => {
        entries[name] = (entries[name] ?? 0) + 1;
        return runFlow(ctx, { era: rc.era, mcp, codec, op: `tools/call:${name}`, args }, (flow) =>
          body(flow, args.topic),
        );
      },
    );
  flowTool('pair', pair);
  flowTool('pair_twin', pair);
  flowTool('steps', (flow, topic) => {
    const where = roots(flow.ask('where', inputRequired.listRoots()));
    const model = modelText(flow.ask('model', ask(`Summarise ${topic} in ${where.join(' ')}`)));
    const ok = flow.ask(
      'ok',
      inputRequired.elicit({ message: `Save the summary of ${topic}?`, requestedSchema: Confirm }),
    );
    if (ok.kind !== 'elicit') throw new Error('expected an elicitation answer');
    return text({ where, model, action: ok.action, content: ok.content, round: flow.round });
  });
  flowTool('caps', (flow) => text({ era: flow.era, abilities: flow.abilities }));
  return mcp;
}

interface ClientSetup {
  capabilities?: ClientCapabilities;
  roots?: () => string[] | Promise<string[]>;
  sampling?: (params: CreateMessageRequestParams) => string | Promise<string>;
}

export async function connect(era: Era, setup: ClientSetup = {}): Promise<Client> {
  const capabilities: ClientCapabilities = setup.capabilities ?? {
    ...(setup.roots ? { roots: {} } : {}),
    ...(setup.sampling ? { sampling: {} } : {}),
  };
  const client = new Client(
    { name: 'mrtr-test-client', version: '0.0.0' },
    {
      capabilities,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const rootsFn = setup.roots;
  if (rootsFn) {
    client.setRequestHandler('roots/list', async () => ({
      roots: (await rootsFn()).map((uri) => ({ uri })),
    }));
  }
  const samplingFn = setup.sampling;
  if (samplingFn) {
    client.setRequestHandler('sampling/createMessage', async (req) => ({
      model: 'scripted',
      role: 'assistant',
      stopReason: 'endTurn',
      content: { type: 'text', text: await samplingFn(req.params) },
    }));
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio((rc) => buildServer(rc), { transport: serverSide });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await handle.close();
  });
  expect(client.getProtocolEra()).toBe(era);
  return client;
}

export function resultJson(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('expected a text block');
  return JSON.parse(block.text) as Record<string, unknown>;
}

export function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}
