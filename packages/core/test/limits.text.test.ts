import { describe, expect, it, vi } from 'vitest';
import { truncateText, utf8ByteLength, utf8Prefix } from '../src/limits/index.js';

// utf8Prefix is the costly step of a cut (it encodes up to the limit); counting its calls measures
// the work of a truncation without a clock. Every call still runs the real function.
vi.mock('../src/limits/utf8.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/limits/utf8.js')>();
  return { ...real, utf8Prefix: vi.fn(real.utf8Prefix) };
});

const MARKER = /\n\[truncated: showed (\d+) of (\d+) bytes\.(?: (.*))?\]$/;

/** Splits output into the shown head and the parsed notice. */
function parse(text: string) {
  const match = MARKER.exec(text);
  if (!match) throw new Error(`no truncation notice in ${JSON.stringify(text.slice(-200))}`);
  return {
    head: text.slice(0, match.index),
    shown: Number(match[1]),
    total: Number(match[2]),
    hint: match[3],
  };
}

describe('utf8Prefix', () => {
  it('never splits a multi-byte character', () => {
    // 'é' is 2 bytes, '中' 3, '😀' 4 (a surrogate pair in UTF-16)
    expect(utf8Prefix('aé', 2)).toEqual({ text: 'a', bytes: 1 });
    expect(utf8Prefix('aé', 3)).toEqual({ text: 'aé', bytes: 3 });
    expect(utf8Prefix('中文', 5)).toEqual({ text: '中', bytes: 3 });
    for (const n of [1, 2, 3]) expect(utf8Prefix('😀😀', n)).toEqual({ text: '', bytes: 0 });
    expect(utf8Prefix('😀😀', 4)).toEqual({ text: '😀', bytes: 4 });
    expect(utf8Prefix('😀😀', 7)).toEqual({ text: '😀', bytes: 4 });
  });

  it('handles empty input and zero or negative budgets', () => {
    expect(utf8Prefix('', 0)).toEqual({ text: '', bytes: 0 });
    expect(utf8Prefix('abc', 0)).toEqual({ text: '', bytes: 0 });
    expect(utf8Prefix('abc', -5)).toEqual({ text: '', bytes: 0 });
  });

  it('counts a lone surrogate as the 3-byte replacement character it becomes', () => {
    const lone = 'a\ud800b';
    expect(utf8ByteLength(lone)).toBe(5);
    expect(utf8Prefix(lone, 4)).toEqual({ text: 'a\ud800', bytes: 4 });
    expect(utf8Prefix(lone, 3)).toEqual({ text: 'a', bytes: 1 });
  });
});

describe('truncateText', () => {
  it('returns text that fits untouched, including exactly at the limit', () => {
    const text = 'héllo wörld';
    const size = utf8ByteLength(text);
    expect(truncateText(text, size, { continuation: 'x' })).toEqual({
      text,
      truncated: false,
      bytes: size,
      shownBytes: size,
      shownChars: text.length,
    });
    expect(truncateText(text, size - 1, { continuation: 'x' }).truncated).toBe(true);
  });

  it('returns empty input untouched', () => {
    expect(truncateText('', 0, { continuation: 'x' })).toEqual({
      text: '',
      truncated: false,
      bytes: 0,
      shownBytes: 0,
      shownChars: 0,
    });
  });

  it('appends a notice with the sizes and the hint, and stays within the limit', () => {
    const text = 'x'.repeat(5000);
    const result = truncateText(text, 1000, { continuation: 'Call again with offset=N to read on.' });
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(1000);
    const notice = parse(result.text);
    expect(notice.total).toBe(5000);
    expect(notice.shown).toBe(result.shownBytes);
    expect(notice.head).toBe('x'.repeat(result.shownBytes));
    expect(notice.hint).toBe('Call again with offset=N to read on.');
    // As much as possible was kept: the output fills the limit (give or take a digit of the notice).
    expect(utf8ByteLength(result.text)).toBeGreaterThanOrEqual(999);
  });

  it('builds the hint from what was shown', () => {
    const text = 'ab'.repeat(2000);
    const result = truncateText(text, 500, {
      continuation: ({ chars, bytes }) => `Call again with start_index=${chars} (byte ${bytes}).`,
    });
    const notice = parse(result.text);
    expect(notice.hint).toBe(`Call again with start_index=${result.shownChars} (byte ${result.shownBytes}).`);
    expect(text.slice(0, result.shownChars)).toBe(notice.head);
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(500);
  });

  it('cuts emoji and CJK on code point boundaries at every limit', () => {
    const text = '😀中a'.repeat(300);
    const size = utf8ByteLength(text);
    for (let limit = 80; limit <= 160; limit++) {
      const result = truncateText(text, limit, { continuation: 'more' });
      const { head, shown, total } = parse(result.text);
      expect(total).toBe(size);
      expect(utf8ByteLength(head)).toBe(shown);
      expect(text.startsWith(head)).toBe(true);
      // No lone surrogate and no replacement character: the head is well-formed.
      expect(Buffer.from(head, 'utf8').toString('utf8')).toBe(head);
      expect(head).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
      expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(limit);
    }
  });

  it('still says it truncated when the limit is smaller than the notice', () => {
    const result = truncateText('abcdefghij'.repeat(10), 5, { continuation: 'Ask for less.' });
    expect(result.truncated).toBe(true);
    expect(result.shownBytes).toBe(0);
    expect(result.text).toBe('\n[truncated: showed 0 of 100 bytes. Ask for less.]');
  });

  it('omits an empty hint cleanly', () => {
    expect(truncateText('abcdef'.repeat(100), 100, { continuation: '' }).text).toMatch(
      /\n\[truncated: showed \d+ of 600 bytes\.\]$/,
    );
  });

  it('keeps a 5 MiB text within a 1 MiB limit, cutting it at most twice', () => {
    const text = 'line of text with ünïcode 😀\n'.repeat(180_000);
    vi.mocked(utf8Prefix).mockClear();
    const result = truncateText(text, 1024 * 1024, { continuation: 'Page on.' });
    // One cut, then at most one more once the notice's size is known: never a byte-by-byte search.
    expect(vi.mocked(utf8Prefix).mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(vi.mocked(utf8Prefix).mock.calls.length).toBeLessThanOrEqual(2);
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(1024 * 1024);
    expect(result.shownBytes).toBeGreaterThan(1024 * 1024 - 100);
    expect(parse(result.text).total).toBe(utf8ByteLength(text));
  });
});
