/**
 * runFlow in manual mode (2026 era): the raw input_required result, partial answers, and a
 * requestState or answer the client tampered with, replayed or got wrong.
 */
import {
  type CallToolResult,
  type Client,
  type InputRequiredResult,
  isInputRequiredResult,
  ProtocolError,
} from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeOpen, connect, entries, errorText, forgetEntries, resultJson } from './mrtr-flow-kit.js';

beforeEach(forgetEntries);
afterEach(closeOpen);

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
