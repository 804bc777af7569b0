/**
 * runToolLoop through a real client, in both eras: the turns of a loop end at maxIterations, with
 * toolChoice none on the last one, even if the model still asks for a tool.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolLoopResult } from '../src/sampling/tool-loop.js';
import { body, closeOpen, connect, eras, textAnswer, toolResults, toolUse } from './sampling-kit.js';

afterEach(closeOpen);

describe.each(eras)('runToolLoop through a real client (%s era)', (era) => {
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
});
