import { randomBytes } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import {
  createCursorCodec,
  type PageSource,
  paginateArray,
  paginateSource,
} from '../src/pagination/index.js';

const codec = createCursorCodec({ key: randomBytes(32) });

describe('paginateArray', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];

  it('walks an array in pages and stops with no cursor', () => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const result = paginateArray(items, { codec, list: 'letters', cursor, pageSize: 2 });
      pages.push(result.page);
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('gives no cursor when the page size fits everything, or exactly', () => {
    expect(paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 10 })).toEqual({
      page: items,
    });
    expect(paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 5 })).toEqual({
      page: items,
    });
    expect(paginateArray([], { codec, list: 'l', cursor: undefined, pageSize: 5 })).toEqual({ page: [] });
  });

  it('resumes after the last item seen when earlier items vanish', () => {
    const first = paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 2, keyOf: (s) => s });
    const shrunk = ['b', 'c', 'd', 'e']; // 'a' removed between pages
    const second = paginateArray(shrunk, {
      codec,
      list: 'l',
      cursor: first.nextCursor,
      pageSize: 2,
      keyOf: (s) => s,
    });
    expect(second.page).toEqual(['c', 'd']);
  });

  it('falls back to the offset when the anchor item itself is gone', () => {
    const first = paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 2, keyOf: (s) => s });
    const second = paginateArray(['a', 'c', 'd', 'e'], {
      codec,
      list: 'l',
      cursor: first.nextCursor,
      pageSize: 2,
      keyOf: (s) => s,
    });
    expect(second.page).toEqual(['d', 'e']);
  });

  it('returns an empty last page when the list shrank below the cursor', () => {
    const first = paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 4 });
    expect(paginateArray(['a'], { codec, list: 'l', cursor: first.nextCursor, pageSize: 4 })).toEqual({
      page: [],
    });
  });

  it('refuses a cursor from another list or with a foreign shape', () => {
    const first = paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 2 });
    expect(() =>
      paginateArray(items, { codec, list: 'other', cursor: first.nextCursor, pageSize: 2 }),
    ).toThrow(ProtocolError);
    const odd = codec.encode('l', { offset: -1, after: '' });
    expect(() => paginateArray(items, { codec, list: 'l', cursor: odd, pageSize: 2 })).toThrow(ProtocolError);
    const notObject = codec.encode('l', [1, 2]);
    expect(() => paginateArray(items, { codec, list: 'l', cursor: notObject, pageSize: 2 })).toThrow(
      ProtocolError,
    );
  });

  it('refuses a bad page size', () => {
    expect(() => paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 0 })).toThrow(
      RangeError,
    );
    expect(() => paginateArray(items, { codec, list: 'l', cursor: undefined, pageSize: 1.5 })).toThrow(
      RangeError,
    );
  });
});

describe('paginateSource', () => {
  type Pos = { after: number };
  const isPos = (v: unknown): v is Pos =>
    typeof v === 'object' && v !== null && typeof (v as { after?: unknown }).after === 'number';

  /** Numbers 1..count; records each `from` it is started with and how many items it produced. */
  function numbers(count: number) {
    const calls: Array<Pos | undefined> = [];
    let produced = 0;
    let closed = 0;
    const source: PageSource<number, Pos> = async function* (from) {
      calls.push(from);
      try {
        for (let n = (from?.after ?? 0) + 1; n <= count; n++) {
          produced++;
          yield { item: n, position: { after: n } };
        }
      } finally {
        closed++;
      }
    };
    return {
      source,
      calls,
      get produced() {
        return produced;
      },
      get closed() {
        return closed;
      },
    };
  }

  it('resumes across 3 pages without restarting the stream', async () => {
    const stream = numbers(7);
    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const result = await paginateSource(stream.source, {
        codec,
        list: 'numbers',
        cursor,
        pageSize: 3,
        isPosition: isPos,
      });
      pages.push(result.page);
      cursor = result.nextCursor;
    } while (cursor !== undefined);

    expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(stream.calls).toEqual([undefined, { after: 3 }, { after: 6 }]);
    // Each page reads at most one item past its end: 4 + 4 + 1, never the whole stream again.
    expect(stream.produced).toBe(9);
    expect(stream.closed).toBe(3);
  });

  it('has no next cursor when the source ends exactly on a page boundary', async () => {
    const stream = numbers(6);
    const first = await paginateSource(stream.source, { codec, list: 'n', cursor: undefined, pageSize: 3 });
    const second = await paginateSource(stream.source, {
      codec,
      list: 'n',
      cursor: first.nextCursor,
      pageSize: 3,
    });
    expect(second).toEqual({ page: [4, 5, 6] });
  });

  it('handles an empty source', async () => {
    const stream = numbers(0);
    expect(await paginateSource(stream.source, { codec, list: 'n', cursor: undefined, pageSize: 3 })).toEqual(
      {
        page: [],
      },
    );
  });

  it('refuses a tampered cursor before starting the source', async () => {
    const stream = numbers(10);
    const first = await paginateSource(stream.source, { codec, list: 'n', cursor: undefined, pageSize: 3 });
    const bad = `${first.nextCursor?.slice(0, -2)}xx`;
    await expect(
      paginateSource(stream.source, { codec, list: 'n', cursor: bad, pageSize: 3 }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    expect(stream.calls).toHaveLength(1);
  });

  it('refuses a position of the wrong shape through the guard', async () => {
    const stream = numbers(10);
    const cursor = codec.encode('n', { after: 'three' });
    await expect(
      paginateSource(stream.source, { codec, list: 'n', cursor, pageSize: 3, isPosition: isPos }),
    ).rejects.toBeInstanceOf(ProtocolError);
  });

  it('stops reading and closes the source when aborted', async () => {
    const controller = new AbortController();
    let closed = false;
    const source: PageSource<number, Pos> = async function* () {
      try {
        for (let n = 1; ; n++) {
          if (n === 2) controller.abort(new Error('stop'));
          yield { item: n, position: { after: n } };
        }
      } finally {
        closed = true;
      }
    };
    await expect(
      paginateSource(source, {
        codec,
        list: 'n',
        cursor: undefined,
        pageSize: 100,
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop');
    expect(closed).toBe(true);
  });
});
