/**
 * The pieces runFlow is built on: abilities (what the client can answer), readAnswer (checking an
 * answer) and digestArgs (binding a requestState to the call's arguments).
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { readAnswer } from '../src/mrtr/answers.js';
import { abilities } from '../src/mrtr/capabilities.js';
import { digestArgs } from '../src/mrtr/flow.js';

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
