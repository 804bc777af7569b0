import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countLinesBefore, readLines, tailStart } from '../src/fs/line-reader.js';
import { readTextWindow, type TextWindow } from '../src/fs/read-text.js';
import { world } from './harness.js';

let w: Awaited<ReturnType<typeof world>>;
beforeEach(async () => {
  w = await world();
});
afterEach(() => w.cleanup());

async function withFile<T>(
  content: string | Buffer,
  body: (h: Awaited<ReturnType<typeof open>>) => Promise<T>,
) {
  const path = join(w.allowed, 'f.txt');
  await writeFile(path, content);
  const handle = await open(path, 'r');
  try {
    return await body(handle);
  } finally {
    await handle.close();
  }
}

async function window(content: string | Buffer, win: TextWindow, byteLimit = 4096) {
  const path = join(w.allowed, 'f.txt');
  await writeFile(path, content);
  return readTextWindow({ real: path, display: 'allowed/f.txt' }, win, {
    byteLimit,
    resume: (next) => `resume ${next}`,
  });
}

const all: TextWindow = { kind: 'range', first: 0 };

describe('readLines', () => {
  it('splits LF and CRLF, and counts a last line without a line feed', async () => {
    const got = await withFile('a\r\nb\r\nc', (h) => readLines(h, { byteCap: 100 }));
    expect(got.lines).toEqual(['a', 'b', 'c']);
    expect(got).toMatchObject({ eof: true, endsWithNewline: false, linesSeen: 3, capped: false });
  });

  it('does not invent an empty line after a final line feed', async () => {
    const got = await withFile('a\nb\n', (h) => readLines(h, { byteCap: 100 }));
    expect(got.lines).toEqual(['a', 'b']);
    expect(got.endsWithNewline).toBe(true);
  });

  it('skips and limits, and keeps blank lines', async () => {
    const got = await withFile('1\n\n3\n4\n5\n', (h) => readLines(h, { skip: 1, max: 3, byteCap: 100 }));
    expect(got.lines).toEqual(['', '3', '4']);
  });

  it('stops at the byte cap instead of reading on', async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const got = await withFile(text, (h) => readLines(h, { byteCap: 50 }));
    expect(got.capped).toBe(true);
    expect(got.lines.length).toBeLessThan(10);
  });

  it('keeps only the head of a line longer than the cap', async () => {
    const got = await withFile(`${'x'.repeat(500_000)}\nnext\n`, (h) => readLines(h, { byteCap: 1000 }));
    expect(got.capped).toBe(true);
    expect(got.lines).toHaveLength(1);
    expect(got.lines[0]!.length).toBeLessThan(500_000);
  });

  it('drops a UTF-8 byte order mark and keeps multi-byte text whole across chunks', async () => {
    const text = `\uFEFF${'é'.repeat(70_000)}\nż`;
    const got = await withFile(text, (h) => readLines(h, { byteCap: 1_000_000 }));
    expect(got.lines).toEqual(['é'.repeat(70_000), 'ż']);
  });
});

describe('tailStart and countLinesBefore', () => {
  it('finds the start of the last N lines, with and without a final line feed', async () => {
    await withFile('a\nb\nc\n', async (h) => {
      expect(await tailStart(h, 6, 1)).toBe(4);
      expect(await tailStart(h, 6, 2)).toBe(2);
      expect(await tailStart(h, 6, 9)).toBe(0);
      expect(await countLinesBefore(h, 4)).toBe(2);
    });
    await withFile('a\nb', async (h) => expect(await tailStart(h, 3, 1)).toBe(2));
    await withFile('', async (h) => expect(await tailStart(h, 0, 3)).toBe(0));
  });

  it('reads backwards across chunk boundaries', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `row ${i}`);
    const text = `${lines.join('\n')}\n`;
    await withFile(text, async (h) => {
      const start = await tailStart(h, Buffer.byteLength(text), 20_000);
      expect(await countLinesBefore(h, start)).toBe(10_000);
      const got = await readLines(h, { fromByte: start, max: 20_000, byteCap: 1 << 30 });
      expect(got.lines[0]).toBe('row 10000');
      expect(got.lines.at(-1)).toBe('row 29999');
    });
  });
});

describe('readTextWindow', () => {
  it('returns a whole file with its final line feed, CRLF shown as LF', async () => {
    expect((await window('a\r\nb\r\n', all)).text).toBe('a\nb\n');
    expect((await window('a\nb', all)).text).toBe('a\nb');
    expect((await window('', all)).text).toBe('');
  });

  it('reads head, tail and offset ranges', async () => {
    const text = '1\r\n2\r\n3\r\n4\r\n5';
    expect((await window(text, { kind: 'range', first: 0, count: 2 })).text).toBe('1\n2');
    expect((await window(text, { kind: 'tail', count: 2 })).text).toBe('4\n5');
    expect((await window(text, { kind: 'range', first: 2, count: 2 })).text).toBe('3\n4');
    expect((await window(text, { kind: 'range', first: 3 })).text).toBe('4\n5');
    expect((await window(text, { kind: 'tail', count: 50 })).text).toBe('1\n2\n3\n4\n5');
  });

  it('refuses an offset past the end, saying how many lines there are', async () => {
    await expect(window('a\nb\n', { kind: 'range', first: 5 })).rejects.toThrow(/has 2 lines, so offset 6/);
  });

  it('names the exact offset and remaining limit when a range does not fit', async () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n');
    const head = await window(text, { kind: 'range', first: 9, count: 50 }, 1024);
    expect(head.truncated).toBe(true);
    const shown = head.text.split('\n').filter((l) => l.startsWith('line ')).length;
    expect(head.text).toContain(`resume offset=${10 + shown}, limit=${50 - shown}`);
    const tail = await window(text, { kind: 'tail', count: 40 }, 1024);
    expect(tail.text.startsWith('line 61 ')).toBe(true);
    const tailShown = tail.text.split('\n').filter((l) => l.startsWith('line ')).length;
    expect(tail.text).toContain(`resume offset=${61 + tailShown}, limit=${40 - tailShown}`);
  });

  it('says when one line alone is over the limit, and how to read past it', async () => {
    const r = await window(`${'y'.repeat(5000)}\nsmall\n`, all, 1024);
    expect(r.text).toContain('Line 1 alone is longer than the output limit');
    expect(r.text).toContain('resume offset=2');
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(1024);
  });

  it('refuses binary content and special files', async () => {
    await expect(window(Buffer.from([0x89, 0x50, 0x00, 0x01]), all)).rejects.toThrow(
      /binary.*read_media_file/,
    );
    await expect(
      readTextWindow({ real: w.allowed, display: 'allowed' }, all, { byteLimit: 100, resume: String }),
    ).rejects.toThrow(/directory|not a regular file/);
  });
});
