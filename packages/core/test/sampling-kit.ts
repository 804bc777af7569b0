/**
 * The server, client and scripted model the sampling tests (sampling.*.test.ts) share: tools that
 * run a tool loop (with lent tools that look up, fail, or return too much) or sample once, a client
 * whose model answers from a script, and helpers to read what the model was sent.
 */
import { randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  InMemoryTransport,
  type SamplingMessageContentBlock,
  type ToolResultContent,
} from '@modelcontextprotocol/client';
import { createRequestStateCodec, type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { expect } from 'vitest';
import * as z from 'zod';
import type { FlowState } from '../src/mrtr/flow.js';
import { runFlow } from '../src/mrtr/flow.js';
import { answerText, SamplingUnavailableError, sample } from '../src/sampling/sample.js';
import { loopTool, runToolLoop, type ToolLoopResult } from '../src/sampling/tool-loop.js';

const codec = createRequestStateCodec<FlowState>({ key: randomBytes(32) });
export const eras = ['legacy', 'modern'] as const;
type Era = (typeof eras)[number];
export type ModelAnswer = CreateMessageResult | CreateMessageResultWithTools;

/** Closers of every client and server a test connected, run by `closeOpen` after each test. */
const open: Array<() => Promise<void>> = [];
export async function closeOpen(): Promise<void> {
  for (const close of open.splice(0)) await close();
}

/** Runs of the lent tools, by name, across every round of a call. */
export const toolRuns: string[] = [];

const lookup = loopTool({
  name: 'lookup',
  description: 'Looks a word up.',
  input: z.object({ word: z.string() }),
  run: ({ word }) => {
    toolRuns.push(`lookup:${word}`);
    return `${word} means ${word.length} letters`;
  },
});
const fails = loopTool({
  name: 'fails',
  description: 'Always fails.',
  input: z.object({}),
  run: () => {
    throw new Error('secret internal detail');
  },
});

const big = loopTool({
  name: 'big',
  description: 'Returns ten two-byte characters.',
  input: z.object({}),
  run: () => 'é'.repeat(10),
});

function buildServer(rc: McpRequestContext, maxIterations: number): McpServer {
  const mcp = new McpServer(
    { name: 'sampling-test', version: '1.0.0' },
    { capabilities: { tools: {} }, requestState: { verify: codec.verify } },
  );
  mcp.registerTool(
    'agent',
    { description: 'Runs a tool loop.', inputSchema: z.object({ question: z.string() }) },
    (args, ctx) =>
      runFlow(ctx, { era: rc.era, mcp, codec, op: 'tools/call:agent', args }, async (flow) => {
        let out: ToolLoopResult;
        try {
          out = await runToolLoop(flow, {
            messages: [{ role: 'user', content: { type: 'text', text: args.question } }],
            systemPrompt: 'Be brief.',
            maxTokens: 100,
            tools: [lookup, fails],
            maxIterations,
          });
        } catch (error) {
          if (error instanceof SamplingUnavailableError)
            return { content: [{ type: 'text', text: 'no model' }] };
          throw error;
        }
        return { content: [{ type: 'text', text: JSON.stringify(out) }] };
      }),
  );
  mcp.registerTool(
    'clipped',
    { description: 'A loop with a small result budget.', inputSchema: z.object({ question: z.string() }) },
    (args, ctx) =>
      runFlow(ctx, { era: rc.era, mcp, codec, op: 'tools/call:clipped', args }, async (flow) => {
        const out = await runToolLoop(flow, {
          key: 'small',
          messages: [{ role: 'user', content: { type: 'text', text: args.question } }],
          maxTokens: 100,
          tools: [big],
          maxToolResultBytes: 5,
        });
        return { content: [{ type: 'text', text: JSON.stringify(out) }] };
      }),
  );
  mcp.registerTool(
    'once',
    { description: 'Samples once.', inputSchema: z.object({ question: z.string() }) },
    (args, ctx) =>
      runFlow(ctx, { era: rc.era, mcp, codec, op: 'tools/call:once', args }, (flow) => {
        const result = sample(flow, 'once', {
          messages: [{ role: 'user', content: { type: 'text', text: args.question } }],
          maxTokens: 10,
        });
        return { content: [{ type: 'text', text: answerText(result) }] };
      }),
  );
  return mcp;
}

interface Setup {
  era: Era;
  sampling?: 'tools' | 'plain';
  model?: (params: CreateMessageRequestParams, turn: number) => ModelAnswer;
  maxIterations?: number;
}

export async function connect(setup: Setup) {
  const capabilities: ClientCapabilities = {};
  if (setup.sampling === 'tools') capabilities.sampling = { tools: {} };
  if (setup.sampling === 'plain') capabilities.sampling = {};
  const client = new Client(
    { name: 'sampling-test-client', version: '0.0.0' },
    {
      capabilities,
      ...(setup.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  const requests: CreateMessageRequestParams[] = [];
  const model = setup.model;
  if (model) {
    client.setRequestHandler('sampling/createMessage', async (req) => {
      requests.push(req.params);
      return model(req.params, requests.length);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio((rc) => buildServer(rc, setup.maxIterations ?? 5), { transport: serverSide });
  await client.connect(clientSide);
  open.push(async () => {
    await client.close();
    await handle.close();
  });
  expect(client.getProtocolEra()).toBe(setup.era);
  toolRuns.length = 0;
  return {
    requests,
    async call(name: string, question: string): Promise<CallToolResult> {
      return (await client.callTool({ name, arguments: { question } })) as CallToolResult;
    },
  };
}

export function body(result: CallToolResult): string {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

export const blocksOf = (content: SamplingMessageContentBlock | SamplingMessageContentBlock[]) =>
  Array.isArray(content) ? content : [content];

export const textAnswer = (text: string): ModelAnswer => ({
  model: 'scripted',
  role: 'assistant',
  stopReason: 'endTurn',
  content: { type: 'text', text },
});

export const toolUse = (
  ...uses: { id: string; name: string; input: Record<string, unknown> }[]
): ModelAnswer => ({
  model: 'scripted',
  role: 'assistant',
  stopReason: 'toolUse',
  content: uses.map((u) => ({ type: 'tool_use' as const, ...u })),
});

export function toolResults(params: CreateMessageRequestParams): ToolResultContent[] {
  const last = params.messages.at(-1);
  if (!last) return [];
  return blocksOf(last.content).filter((b): b is ToolResultContent => b.type === 'tool_result');
}

export function resultText(r: ToolResultContent): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
