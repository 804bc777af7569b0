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
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { FlowState } from '../src/mrtr/flow.js';
import { runFlow } from '../src/mrtr/flow.js';
import { answerText, SamplingUnavailableError, sample } from '../src/sampling/sample.js';
import { loopTool, runToolLoop, type ToolLoopResult } from '../src/sampling/tool-loop.js';

const codec = createRequestStateCodec<FlowState>({ key: randomBytes(32) });
const eras = ['legacy', 'modern'] as const;
type Era = (typeof eras)[number];
type ModelAnswer = CreateMessageResult | CreateMessageResultWithTools;

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

/** Runs of the lent tools, by name, across every round of a call. */
const toolRuns: string[] = [];

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

async function connect(setup: Setup) {
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

function body(result: CallToolResult): string {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

const blocksOf = (content: SamplingMessageContentBlock | SamplingMessageContentBlock[]) =>
  Array.isArray(content) ? content : [content];

const textAnswer = (text: string): ModelAnswer => ({
  model: 'scripted',
  role: 'assistant',
  stopReason: 'endTurn',
  content: { type: 'text', text },
});

const toolUse = (...uses: { id: string; name: string; input: Record<string, unknown> }[]): ModelAnswer => ({
  model: 'scripted',
  role: 'assistant',
  stopReason: 'toolUse',
  content: uses.map((u) => ({ type: 'tool_use' as const, ...u })),
});

function toolResults(params: CreateMessageRequestParams): ToolResultContent[] {
  const last = params.messages.at(-1);
  if (!last) return [];
  return blocksOf(last.content).filter((b): b is ToolResultContent => b.type === 'tool_result');
}

function resultText(r: ToolResultContent): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe.each(eras)('runToolLoop through a real client (%s era)', (era) => {
  it('answers every tool_use once, in a user message after the assistant message', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      model: (params, turn) =>
        turn === 1
          ? toolUse(
              { id: 'u1', name: 'lookup', input: { word: 'tide' } },
              { id: 'u2', name: 'lookup', input: { word: 'moon' } },
            )
          : textAnswer(`final after ${params.messages.length} messages`),
    });
    const out = JSON.parse(body(await s.call('agent', 'what?'))) as ToolLoopResult;
    expect(out).toEqual({
      text: 'final after 3 messages',
      model: 'scripted',
      iterations: 2,
      toolCalls: [
        { name: 'lookup', isError: false },
        { name: 'lookup', isError: false },
      ],
    });
    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    expect(first?.tools?.map((t) => t.name)).toEqual(['lookup', 'fails']);
    expect(first?.toolChoice).toEqual({ mode: 'auto' });
    expect(first?.systemPrompt).toBe('Be brief.');

    const messages = second?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const uses = blocksOf(messages[1]!.content).filter((b) => b.type === 'tool_use');
    expect(uses.map((u) => (u.type === 'tool_use' ? u.id : ''))).toEqual(['u1', 'u2']);
    const results = toolResults(second!);
    expect(results).toHaveLength(2);
    expect(results.map((r) => r.toolUseId).sort()).toEqual(['u1', 'u2']);
    expect(results.map(resultText)).toEqual(['tide means 4 letters', 'moon means 4 letters']);
    expect(results.every((r) => r.isError === undefined)).toBe(true);
    // Nothing but tool results in the user message that answers the tool calls.
    expect(blocksOf(messages[2]!.content).every((b) => b.type === 'tool_result')).toBe(true);
  });

  it('answers a call to an unknown tool with an isError tool_result', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      model: (_params, turn) =>
        turn === 1 ? toolUse({ id: 'x1', name: 'rm_rf', input: {} }) : textAnswer('done'),
    });
    const out = JSON.parse(body(await s.call('agent', 'go'))) as ToolLoopResult;
    expect(out.toolCalls).toEqual([{ name: 'rm_rf', isError: true }]);
    const [result] = toolResults(s.requests[1]!);
    expect(result).toMatchObject({ toolUseId: 'x1', isError: true });
    expect(resultText(result!)).toBe('There is no tool named "rm_rf".');
  });

  it('answers invalid tool input with an isError tool_result and does not run the tool', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      model: (_params, turn) =>
        turn === 1 ? toolUse({ id: 'b1', name: 'lookup', input: { word: 42 } }) : textAnswer('done'),
    });
    const out = JSON.parse(body(await s.call('agent', 'go'))) as ToolLoopResult;
    expect(out.toolCalls).toEqual([{ name: 'lookup', isError: true }]);
    const [result] = toolResults(s.requests[1]!);
    expect(result).toMatchObject({ toolUseId: 'b1', isError: true });
    expect(resultText(result!)).toMatch(/^Invalid input for lookup: .*word/s);
    expect(toolRuns).toEqual([]);
  });

  it('hides the message of a tool that fails unexpectedly', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      model: (_params, turn) =>
        turn === 1 ? toolUse({ id: 'f1', name: 'fails', input: {} }) : textAnswer('ok'),
    });
    await s.call('agent', 'go');
    const [result] = toolResults(s.requests[1]!);
    expect(result).toMatchObject({ toolUseId: 'f1', isError: true });
    expect(resultText(result!)).toBe('fails failed.');
  });

  it('cuts a long tool result on a character boundary and says so', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      model: (_params, turn) =>
        turn === 1 ? toolUse({ id: 'g1', name: 'big', input: {} }) : textAnswer('ok'),
    });
    const out = JSON.parse(body(await s.call('clipped', 'go'))) as ToolLoopResult;
    expect(out).toMatchObject({ text: 'ok', toolCalls: [{ name: 'big', isError: false }] });
    const [result] = toolResults(s.requests[1]!);
    expect(resultText(result!)).toBe('éé\n[truncated: 20 bytes in all]');
  });

  it('stops at the iteration limit with toolChoice none and returns text', async () => {
    let n = 0;
    const s = await connect({
      era,
      sampling: 'tools',
      maxIterations: 3,
      // Calls a tool whenever it may.
      model: (params) =>
        params.toolChoice?.mode === 'none'
          ? textAnswer('forced to answer')
          : toolUse({ id: `c${++n}`, name: 'lookup', input: { word: `w${n}` } }),
    });
    const out = JSON.parse(body(await s.call('agent', 'loop'))) as ToolLoopResult;
    expect(out.text).toBe('forced to answer');
    expect(out.iterations).toBe(3);
    expect(out.toolCalls).toHaveLength(2);
    expect(s.requests).toHaveLength(3);
    expect(s.requests.map((r) => r.toolChoice?.mode)).toEqual(['auto', 'auto', 'none']);
    const last = s.requests.at(-1)!;
    // Both earlier calls were answered before the last turn.
    expect(last.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(toolResults(last).map((r) => r.toolUseId)).toEqual(['c2']);
  });

  it('ends on the last turn even if the model still asks for a tool', async () => {
    const s = await connect({
      era,
      sampling: 'tools',
      maxIterations: 2,
      model: (_params, turn) => ({
        model: 'stubborn',
        role: 'assistant',
        stopReason: 'toolUse',
        content: [
          { type: 'text', text: `turn ${turn}` },
          { type: 'tool_use', id: `t${turn}`, name: 'lookup', input: { word: 'x' } },
        ],
      }),
    });
    const out = JSON.parse(body(await s.call('agent', 'loop'))) as ToolLoopResult;
    expect(out).toMatchObject({ text: 'turn 2', iterations: 2 });
    expect(s.requests).toHaveLength(2);
  });

  it('sends a plain request without tools to a client without sampling.tools', async () => {
    const s = await connect({
      era,
      sampling: 'plain',
      model: () => textAnswer('plain answer'),
    });
    const out = JSON.parse(body(await s.call('agent', 'q'))) as ToolLoopResult;
    expect(out).toEqual({ text: 'plain answer', model: 'scripted', iterations: 1, toolCalls: [] });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]?.tools).toBeUndefined();
    expect(s.requests[0]?.toolChoice).toBeUndefined();
    expect(s.requests[0]?.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'q' } }]);
  });

  it('raises SamplingUnavailableError for a client without sampling', async () => {
    const s = await connect({ era });
    expect(body(await s.call('agent', 'q'))).toBe('no model');
    const raw = await s.call('once', 'q');
    expect(raw.isError).toBe(true);
    expect(raw.content[0]).toEqual({
      type: 'text',
      text: 'This client does not offer sampling, so the server cannot ask its model.',
    });
  });

  it("samples once with the caller's params and returns the answer", async () => {
    const s = await connect({ era, sampling: 'plain', model: () => textAnswer('single') });
    expect(body(await s.call('once', 'q?'))).toBe('single');
    expect(s.requests).toEqual([
      expect.objectContaining({
        maxTokens: 10,
        messages: [{ role: 'user', content: { type: 'text', text: 'q?' } }],
      }),
    ]);
  });
});

describe('answerText', () => {
  it('joins the text blocks and skips the others', () => {
    expect(
      answerText({
        model: 'm',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'n', input: {} },
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\ntwo');
    expect(answerText({ model: 'm', role: 'assistant', content: { type: 'text', text: 'solo' } })).toBe(
      'solo',
    );
  });
});
