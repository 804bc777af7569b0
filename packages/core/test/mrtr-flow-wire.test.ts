/**
 * runFlow over the wire, in both eras: questions of one round answered in parallel, earlier answers
 * kept across rounds, and what the handler learns of the client's abilities.
 */
import { type CallToolResult, Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildServer,
  closeOpen,
  connect,
  entries,
  eras,
  forgetEntries,
  open,
  resultJson,
} from './mrtr-flow-kit.js';

beforeEach(forgetEntries);
afterEach(closeOpen);

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
