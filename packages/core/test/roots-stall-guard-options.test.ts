/**
 * StallGuard's options: a guard that could never work (no deadline, no slot, a deadline a timer
 * cannot keep) is refused when it is made, with a sentence naming the option, rather than failing
 * every call later or never guarding at all.
 */
import { describe, expect, it } from 'vitest';
import { SlowPaths } from '../src/roots/slow-paths.js';
import { StallGuard, type StallGuardOptions } from '../src/roots/stall-guard.js';

/** Options as a JavaScript caller, or a wrong cast, might pass them. */
const make = (options: unknown) => () => new StallGuard(options as StallGuardOptions);

describe('StallGuard options', () => {
  it.each([
    ['zero', 0],
    ['a negative number', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['more than a timer can wait', 2 ** 31],
  ])('refuses a timeoutMs of %s', (_what, timeoutMs) => {
    expect(make({ timeoutMs })).toThrow(RangeError);
    expect(make({ timeoutMs })).toThrow(/^StallGuard timeoutMs must be a number of milliseconds above 0/);
  });

  it.each([
    ['missing', undefined],
    ['a string', '15000'],
  ])('refuses a timeoutMs that is %s', (_what, timeoutMs) => {
    expect(make({ timeoutMs })).toThrow(TypeError);
    expect(make({ timeoutMs })).toThrow(/^StallGuard timeoutMs must be a number/);
  });

  it.each([
    ['zero', 0],
    ['a negative number', -2],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('refuses slots of %s', (_what, slots) => {
    expect(make({ timeoutMs: 1_000, slots })).toThrow(RangeError);
    expect(make({ timeoutMs: 1_000, slots })).toThrow(
      /^StallGuard slots must be a whole number of at least 1/,
    );
  });

  it('refuses slots that are not a number, paths that are not SlowPaths, and no options at all', () => {
    expect(make({ timeoutMs: 1_000, slots: '2' })).toThrow(TypeError);
    expect(make({ timeoutMs: 1_000, paths: {} })).toThrow(/^StallGuard paths must be a SlowPaths/);
    expect(make({ timeoutMs: 1_000, paths: null })).toThrow(TypeError);
    expect(make(undefined)).toThrow(/^StallGuard needs its options/);
  });

  it('says what it got, in one sentence', () => {
    expect(make({ timeoutMs: -5 })).toThrow(/; got -5\.$/);
    expect(make({ timeoutMs: 1_000, slots: 0 })).toThrow(/; got 0\.$/);
  });

  it('takes the smallest and largest sensible values, and leaves out what has a default', () => {
    const paths = new SlowPaths('win32');
    expect(new StallGuard({ timeoutMs: 0.5, slots: 1, paths }).timeoutMs).toBe(0.5);
    expect(new StallGuard({ timeoutMs: 2 ** 31 - 1, slots: 1024 }).timeoutMs).toBe(2 ** 31 - 1);
    expect(new StallGuard({ timeoutMs: 15_000 }).paths).toBeInstanceOf(SlowPaths);
  });
});
