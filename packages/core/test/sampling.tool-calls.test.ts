/**
 * runToolLoop through a real client, in both eras: how the model's tool calls are answered (each
 * once, after the assistant message), including unknown tools, invalid input, a failing tool and a
 * result too long to send whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolLoopResult } from '../src/sampling/tool-loop.js';
import {
  blocksOf,
  body,
  closeOpen,
  connect,
  eras,
  resultText,
  textAnswer,
  toolResults,
  toolRuns,
  toolUse,
} from './sampling-kit.js';

afterEach(closeOpen);

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

  it("quotes an unknown tool's name escaped and cut, as any input", async () => {
    const name = `rm\n\u202erf${'x'.repeat(300)}`;
    const s = await connect({
      era,
      sampling: 'tools',
      model: (_params, turn) => (turn === 1 ? toolUse({ id: 'x2', name, input: {} }) : textAnswer('done')),
    });
    await s.call('agent', 'go');
    const [result] = toolResults(s.requests[1]!);
    expect(resultText(result!)).toBe(`There is no tool named "rm\\n\\u202erf${'x'.repeat(194)}…".`);
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
    expect(resultText(result!)).toBe(
      'The tool "fails" failed unexpectedly; try other input, or answer without it.',
    );
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
});
