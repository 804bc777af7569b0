import { describe, expect, it } from 'vitest';
import { base64Length, limitBinary, OutputBudget, utf8ByteLength } from '../src/limits/index.js';
import { isTooLarge } from '../src/limits/limit-binary.js';
import {
  DEFAULT_OUTPUT_LIMIT_BYTES,
  MAX_OUTPUT_LIMIT_BYTES,
  OUTPUT_LIMIT_ENV,
  resolveOutputLimit,
} from '../src/limits/output-limit.js';

describe('resolveOutputLimit', () => {
  it('defaults to 1 MiB, well under the 10 MiB stdio cap', () => {
    expect(DEFAULT_OUTPUT_LIMIT_BYTES).toBe(1024 * 1024);
    expect(resolveOutputLimit(undefined, {})).toBe(DEFAULT_OUTPUT_LIMIT_BYTES);
    expect(resolveOutputLimit(undefined, { [OUTPUT_LIMIT_ENV]: '' })).toBe(DEFAULT_OUTPUT_LIMIT_BYTES);
    expect(MAX_OUTPUT_LIMIT_BYTES).toBeLessThan(10 * 1024 * 1024);
  });

  it('prefers the option over the environment', () => {
    expect(resolveOutputLimit(4096, { [OUTPUT_LIMIT_ENV]: '8192' })).toBe(4096);
    expect(resolveOutputLimit(undefined, { [OUTPUT_LIMIT_ENV]: '8192' })).toBe(8192);
  });

  it('reads binary units', () => {
    expect(resolveOutputLimit('512k', {})).toBe(512 * 1024);
    expect(resolveOutputLimit('512 KiB', {})).toBe(512 * 1024);
    expect(resolveOutputLimit('2MiB', {})).toBe(2 * 1024 * 1024);
    expect(resolveOutputLimit('1.5m', {})).toBe(1.5 * 1024 * 1024);
    expect(resolveOutputLimit(undefined, { [OUTPUT_LIMIT_ENV]: ' 64kb ' })).toBe(64 * 1024);
  });

  it('refuses values it cannot honour, naming where they came from', () => {
    for (const bad of ['abc', '-1', '0', '10', '1e6', '5GiB', '100m', 1.5, Number.NaN, 0]) {
      expect(() => resolveOutputLimit(bad, {})).toThrow(RangeError);
    }
    expect(() => resolveOutputLimit(undefined, { [OUTPUT_LIMIT_ENV]: 'lots' })).toThrow(OUTPUT_LIMIT_ENV);
  });
});

describe('OutputBudget', () => {
  it('shares one limit across several parts and marks the cut', () => {
    const budget = new OutputBudget(300);
    const first = budget.take('a'.repeat(100));
    expect(first).toEqual({ text: 'a'.repeat(100), truncated: false });
    expect(budget.remaining).toBe(200);

    const second = budget.take('中'.repeat(100), { continuation: 'Read the file on its own.' });
    expect(second.truncated).toBe(true);
    expect(second.text).toMatch(/\n\[truncated: showed \d+ of 300 bytes\. Read the file on its own\.\]$/);
    expect(second.text.startsWith('中')).toBe(true);
    expect(budget.used).toBeLessThanOrEqual(300);
    expect(budget.used).toBe(100 + utf8ByteLength(second.text));
  });

  it('fills to exactly the limit without truncating', () => {
    const budget = new OutputBudget(8);
    expect(budget.take('😀😀')).toEqual({ text: '😀😀', truncated: false });
    expect(budget.remaining).toBe(0);
    expect(budget.take('')).toEqual({ text: '', truncated: false });
  });

  it('still reports a cut once the budget is spent', () => {
    const budget = new OutputBudget(10);
    budget.take('0123456789');
    const next = budget.take('more');
    expect(next.truncated).toBe(true);
    expect(next.text).toBe('\n[truncated: showed 0 of 4 bytes.]');
    expect(budget.remaining).toBe(0);
  });

  it('rejects a bad limit', () => {
    expect(() => new OutputBudget(-1)).toThrow(RangeError);
    expect(() => new OutputBudget(1.5)).toThrow(RangeError);
  });
});

describe('limitBinary', () => {
  it('passes data whose base64 form fits, up to exactly the limit', () => {
    const data = new Uint8Array(300); // base64: 400 bytes
    expect(base64Length(300)).toBe(400);
    expect(limitBinary(data, 400)).toBe(data);
    const buffer = Buffer.alloc(3);
    const same = limitBinary(buffer, 4);
    expect(same).toBe(buffer);
    expect(isTooLarge(same)).toBe(false);
  });

  it('refuses data one byte over, with its sizes', () => {
    const result = limitBinary(new Uint8Array(301), 400);
    expect(result).toEqual({ tooLarge: true, size: 301, encodedSize: 404, limitBytes: 400 });
    expect(isTooLarge(result)).toBe(true);
  });

  it('passes empty data', () => {
    const empty = new Uint8Array(0);
    expect(limitBinary(empty, 0)).toBe(empty);
  });
});
