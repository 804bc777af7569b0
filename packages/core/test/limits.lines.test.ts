import { describe, expect, it } from 'vitest';
import { truncateLines, utf8ByteLength } from '../src/limits/index.js';

describe('truncateLines', () => {
  const lines = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

  it('joins lines that fit, including exactly at the limit', () => {
    const joined = lines.join('\n');
    expect(truncateLines(lines, utf8ByteLength(joined), { continuation: 'x' })).toEqual({
      text: joined,
      truncated: false,
      bytes: utf8ByteLength(joined),
      shownBytes: utf8ByteLength(joined),
      shownLines: 5,
      partialLine: false,
    });
  });

  it('handles no lines', () => {
    expect(truncateLines([], 10, { continuation: 'x' })).toMatchObject({
      text: '',
      truncated: false,
      shownLines: 0,
    });
  });

  it('cuts between lines and reports the first omitted line', () => {
    const many = Array.from({ length: 100 }, (_, i) => `line ${i} 中文`);
    const result = truncateLines(many, 300, {
      continuation: ({ nextLine }) => `Call again with start_line=${nextLine + 1}.`,
    });
    expect(result.truncated).toBe(true);
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(300);
    const shown = result.shownLines;
    expect(result.nextLine).toBe(shown);
    expect(
      result.text.startsWith(`${many.slice(0, shown).join('\n')}\n[truncated: showed ${shown} of 100 lines`),
    ).toBe(true);
    expect(result.text).toMatch(new RegExp(`Call again with start_line=${shown + 1}\\.\\]$`));
    // One more whole line would not have fitted beside the notice.
    const notice = result.text.slice(many.slice(0, shown).join('\n').length);
    expect(utf8ByteLength(many.slice(0, shown + 1).join('\n')) + utf8ByteLength(notice)).toBeGreaterThan(300);
  });

  it('shows the head of a first line that is too long on its own', () => {
    const result = truncateLines(['😀'.repeat(1000), 'next'], 200, {
      continuation: ({ partialLine, chars }) => (partialLine ? `Read from character ${chars}.` : 'x'),
    });
    expect(result.partialLine).toBe(true);
    expect(result.shownLines).toBe(0);
    expect(result.nextLine).toBe(0);
    expect(result.shownBytes % 4).toBe(0);
    expect(result.text).toMatch(
      /the first line alone is 4000 bytes; showed its first \d+ of 4005 bytes\. Read from/,
    );
    expect(utf8ByteLength(result.text)).toBeLessThanOrEqual(200);
  });

  it('supports another separator', () => {
    const result = truncateLines(['a', 'b'], 10, { continuation: 'x', separator: '\r\n' });
    expect(result).toMatchObject({ text: 'a\r\nb', bytes: 4, truncated: false });
  });
});
