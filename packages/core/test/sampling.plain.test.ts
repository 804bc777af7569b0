/**
 * Sampling without tools, in both eras: runToolLoop sends a plain request to a client without
 * sampling.tools and raises SamplingUnavailableError for one without sampling; sample() asks once;
 * answerText reads the text of an answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerText } from '../src/sampling/sample.js';
import type { ToolLoopResult } from '../src/sampling/tool-loop.js';
import { body, closeOpen, connect, eras, textAnswer } from './sampling-kit.js';

afterEach(closeOpen);

describe.each(eras)('runToolLoop through a real client (%s era)', (era) => {
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
