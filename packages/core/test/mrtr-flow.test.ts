import { randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  InMemoryTransport,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolError,
} from '@modelcontextprotocol/client';
import {
  createRequestStateCodec,
  inputRequired,
  type McpRequestContext,
  McpServer,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { UserError } from '../src/errors/index.js';
import { type Answer, readAnswer } from '../src/mrtr/answers.js';
import { abilities } from '../src/mrtr/capabilities.js';
import { digestArgs, type Flow, type FlowState, runFlow } from '../src/mrtr/flow.js';

const codec = createRequestStateCodec<FlowState>({ key: randomBytes(32) });
const eras = ['legacy', 'modern'] as const;
type Era = (typeof eras)[number];

/** How often each tool's handler was entered: one entry per round plus the final one. */
let entries: Record<string, number> = {};
const open: Array<() => Promise<void>> = [];

beforeEach(() => {
  entries = {};
});
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

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

function buildServer(rc: McpRequestContext): McpServer {
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

async function connect(era: Era, setup: ClientSetup = {}): Promise<Client> {
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

function resultJson(result: CallToolResult): Record<string, unknown> {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('expected a text block');
  return JSON.parse(block.text) as Record<string, unknown>;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

/** Resolves when `count` callers have arrived, so concurrent handlers can be told from sequential ones. */
function barrier(count: number, timeoutMs: number) {
  let arrived = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let release: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    get maxInFlight() {
      return maxInFlight;
    },
    async enter<T>(value: T): Promise<T> {
      arrived++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (arrived >= count) release();
      // A sequential caller never sees the second arrival: give up after the timeout.
      await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs))]);
      inFlight--;
      return value;
    },
  };
}

describe.each(eras)('runFlow over the wire (%s era)', (era) => {
  it('asks two questions in one round and the client answers them in parallel', async () => {
    const gate = barrier(2, 1000);
    let rootsCalls = 0;
    let samplingCalls = 0;
    const client = await connect(era, {
      roots: () => {
        rootsCalls++;
        return gate.enter(['file:///work/a']);
      },
      sampling: (params) => {
        samplingCalls++;
        const first = params.messages[0]?.content;
        return gate.enter(
          first && !Array.isArray(first) && first.type === 'text' ? `model saw: ${first.text}` : '?',
        );
      },
    });
    const out = resultJson(
      (await client.callTool({ name: 'pair', arguments: { topic: 'tides' } })) as CallToolResult,
    );
    expect(out).toEqual({ roots: ['file:///work/a'], model: 'model saw: Summarise tides', round: 1 });
    expect(gate.maxInFlight).toBe(2);
    expect([rootsCalls, samplingCalls]).toEqual([1, 1]);
    // One round with both questions, then the final entry.
    expect(entries.pair).toBe(2);
  });

  it('keeps earlier answers across rounds and asks each question once', async () => {
    let rootsCalls = 0;
    const prompts: string[] = [];
    const elicitations: string[] = [];
    const client = new Client(
      { name: 'mrtr-test-client', version: '0.0.0' },
      {
        capabilities: { roots: {}, sampling: {}, elicitation: { form: {} } },
        ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('roots/list', async () => {
      rootsCalls++;
      return { roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b' }] };
    });
    client.setRequestHandler('sampling/createMessage', async (req) => {
      const c = req.params.messages[0]?.content;
      const prompt = c && !Array.isArray(c) && c.type === 'text' ? c.text : '';
      prompts.push(prompt);
      return {
        model: 'scripted',
        role: 'assistant',
        content: { type: 'text', text: `summary of (${prompt})` },
      };
    });
    client.setRequestHandler('elicitation/create', async (req) => {
      elicitations.push(req.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio((rc) => buildServer(rc), { transport: serverSide });
    await client.connect(clientSide);
    open.push(async () => {
      await client.close();
      await handle.close();
    });

    const out = resultJson(
      (await client.callTool({ name: 'steps', arguments: { topic: 'tides' } })) as CallToolResult,
    );
    expect(out).toEqual({
      where: ['file:///work/a', 'file:///work/b'],
      model: 'summary of (Summarise tides in file:///work/a file:///work/b)',
      action: 'accept',
      content: { confirm: true },
      round: 3,
    });
    expect(rootsCalls).toBe(1);
    expect(prompts).toEqual(['Summarise tides in file:///work/a file:///work/b']);
    expect(elicitations).toEqual(['Save the summary of tides?']);
    expect(entries.steps).toBe(4);
  });

  it('tells the handler what the client can do, read where this era keeps it', async () => {
    const client = await connect(era, {
      capabilities: { sampling: { tools: {} }, elicitation: { url: {} } },
    });
    const out = resultJson(
      (await client.callTool({ name: 'caps', arguments: { topic: 'x' } })) as CallToolResult,
    );
    expect(out).toEqual({
      era,
      abilities: { roots: false, sampling: true, samplingWithTools: true, elicitForm: false },
    });
  });
});

describe('runFlow in manual mode (modern era)', () => {
  const samplingAnswer = {
    model: 'hand',
    role: 'assistant',
    stopReason: 'endTurn',
    content: { type: 'text', text: 'by hand' },
  };
  const rootsAnswer = { roots: [{ uri: 'file:///manual' }] };

  async function manualClient(): Promise<Client> {
    return connect('modern', { capabilities: { roots: {}, sampling: {} } });
  }

  async function call(client: Client, params: Record<string, unknown>) {
    return (await client.request({ method: 'tools/call', params }, { allowInputRequired: true })) as
      | CallToolResult
      | InputRequiredResult;
  }

  async function firstRound(client: Client, name = 'pair', topic = 'tides'): Promise<InputRequiredResult> {
    const first = await call(client, { name, arguments: { topic } });
    if (!isInputRequiredResult(first))
      throw new Error(`expected input_required, got ${JSON.stringify(first)}`);
    return first;
  }

  it('returns a raw input_required result with both questions and a signed state', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests ?? {}).sort()).toEqual(['model', 'where']);
    expect(first.inputRequests?.where?.method).toBe('roots/list');
    expect(first.inputRequests?.model?.method).toBe('sampling/createMessage');
    expect(typeof first.requestState).toBe('string');

    const done = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { where: rootsAnswer, model: samplingAnswer },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(done)) throw new Error('expected a final result');
    expect(resultJson(done)).toEqual({ roots: ['file:///manual'], model: 'by hand', round: 1 });
  });

  it('asks again only for what is still missing, keeping the answer it got', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const second = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { where: rootsAnswer },
      requestState: first.requestState,
    });
    if (!isInputRequiredResult(second)) throw new Error('expected input_required');
    expect(Object.keys(second.inputRequests ?? {})).toEqual(['model']);
    const done = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { model: samplingAnswer },
      requestState: second.requestState,
    });
    if (isInputRequiredResult(done)) throw new Error('expected a final result');
    expect(resultJson(done)).toEqual({ roots: ['file:///manual'], model: 'by hand', round: 2 });
  });

  it('answers a tampered requestState with -32602 before the handler runs', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const state = first.requestState ?? '';
    const i = Math.floor(state.length / 2);
    const tampered = state.slice(0, i) + (state[i] === 'A' ? 'B' : 'A') + state.slice(i + 1);
    expect(tampered).not.toBe(state);
    const before = entries.pair;
    const error = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { where: rootsAnswer, model: samplingAnswer },
      requestState: tampered,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect(entries.pair).toBe(before);
  });

  it('refuses a state replayed for a different tool', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const replay = await call(client, {
      name: 'pair_twin',
      arguments: { topic: 'tides' },
      inputResponses: { where: rootsAnswer, model: samplingAnswer },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(replay)) throw new Error('expected an error result');
    expect(errorText(replay)).toMatch(/does not match the call/);
  });

  it('refuses a state replayed with different arguments', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const replay = await call(client, {
      name: 'pair',
      arguments: { topic: 'volcanoes' },
      inputResponses: { where: rootsAnswer, model: samplingAnswer },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(replay)) throw new Error('expected an error result');
    expect(errorText(replay)).toMatch(/does not match the call/);
  });

  it('rejects an answer of the wrong kind with a clear sentence', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const wrong = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { where: samplingAnswer, model: samplingAnswer },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(wrong)) throw new Error('expected an error result');
    expect(errorText(wrong)).toBe(
      'The client answered the roots request "where" with a sampling result; retry the call.',
    );
  });

  it('rejects a sampling answer of the wrong shape with a clear sentence', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const bad = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      // role + content make it a sampling answer; the content block and the model name are missing.
      inputResponses: { where: rootsAnswer, model: { role: 'assistant', content: { type: 'text' } } },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(bad)) throw new Error('expected an error result');
    expect(errorText(bad)).toBe('The client sent an invalid sampling result; retry the call.');
  });

  it('rejects a roots answer that is not a roots list', async () => {
    const client = await manualClient();
    const first = await firstRound(client);
    const bad = await call(client, {
      name: 'pair',
      arguments: { topic: 'tides' },
      inputResponses: { where: { roots: [{ name: 'no uri' }] }, model: samplingAnswer },
      requestState: first.requestState,
    });
    if (isInputRequiredResult(bad)) throw new Error('expected an error result');
    expect(errorText(bad)).toBe('The client sent an invalid roots list; check the client and retry.');
  });
});

describe('abilities', () => {
  it('says no to everything for a client without capabilities', () => {
    expect(abilities({})).toEqual({
      roots: false,
      sampling: false,
      samplingWithTools: false,
      elicitForm: false,
    });
  });

  it('reads a bare `elicitation: {}` (2025-06-18) as form mode', () => {
    expect(abilities({ elicitation: {} }).elicitForm).toBe(true);
  });

  it('does not offer forms to a client that declares URL mode only', () => {
    expect(abilities({ elicitation: { url: {} } }).elicitForm).toBe(false);
    expect(abilities({ elicitation: { form: {}, url: {} } }).elicitForm).toBe(true);
  });

  it('tells sampling with tools from plain sampling', () => {
    expect(abilities({ sampling: {} })).toMatchObject({ sampling: true, samplingWithTools: false });
    expect(abilities({ sampling: { tools: {} } })).toMatchObject({ sampling: true, samplingWithTools: true });
  });

  it('sees roots', () => {
    expect(abilities({ roots: { listChanged: true } }).roots).toBe(true);
  });
});

describe('readAnswer', () => {
  it('returns undefined for an unanswered key and for no responses at all', () => {
    expect(readAnswer(undefined, 'a', 'roots')).toBeUndefined();
    expect(readAnswer({ b: { roots: [] } }, 'a', 'roots')).toBeUndefined();
  });

  it('refuses a roots list past 256 entries', () => {
    const many = { a: { roots: Array.from({ length: 257 }, (_, i) => ({ uri: `file:///r${i}` })) } };
    expect(() => readAnswer(many, 'a', 'roots')).toThrow(UserError);
  });

  it('validates elicitation answers', () => {
    expect(readAnswer({ a: { action: 'decline' } }, 'a', 'elicit')).toEqual({
      kind: 'elicit',
      action: 'decline',
    });
    expect(() => readAnswer({ a: { action: 'accept', content: 'yes' } }, 'a', 'elicit')).toThrow(
      'The client sent an invalid answer to a question; retry the call.',
    );
  });
});

describe('digestArgs', () => {
  it('ignores key order and undefined members, and tells different values apart', () => {
    expect(digestArgs({ a: 1, b: [1, { c: 'x' }] })).toBe(
      digestArgs({ b: [1, { c: 'x' }], a: 1, d: undefined }),
    );
    expect(digestArgs({ a: 1 })).not.toBe(digestArgs({ a: 2 }));
    expect(digestArgs({ a: '1' })).not.toBe(digestArgs({ a: 1 }));
  });
});
