import { randomBytes } from 'node:crypto';
import { ProtocolError } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { MAX_CURSOR_LENGTH } from '../src/pagination/cursor-codec.js';
import {
  argumentsKey,
  type CursorCodec,
  createCursorCodec,
  decodeBoundCursor,
  encodeBoundCursor,
  INVALID_CURSOR_MESSAGE,
  type JsonValue,
} from '../src/pagination/index.js';

const key = randomBytes(32);

function expectInvalid(codec: CursorCodec, list: string, cursor: string): void {
  expectInvalidCall(() => codec.decode(list, cursor));
}

function expectInvalidCall(decode: () => unknown): void {
  let caught: unknown;
  try {
    decode();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ProtocolError);
  expect((caught as ProtocolError).code).toBe(-32602);
  expect((caught as ProtocolError).message).toBe(INVALID_CURSOR_MESSAGE);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createCursorCodec', () => {
  it('round-trips positions of any JSON shape', () => {
    const codec = createCursorCodec({ key });
    const positions: JsonValue[] = [
      { offset: 40 },
      { after: 'src/b.ts', dirStack: ['src', 'src/lib'] },
      'sha:abc',
      7,
      null,
      { nested: { ok: true, text: 'ünïcödé 🙂' } },
    ];
    for (const position of positions) {
      const cursor = codec.encode('list', position);
      expect(cursor.startsWith('v1.')).toBe(true);
      expect(cursor).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(codec.decode('list', cursor)).toEqual(position);
    }
  });

  it('refuses a cursor with any single character changed', () => {
    const codec = createCursorCodec({ key });
    const cursor = codec.encode('tools/list', { offset: 2, after: 'tool_2' });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < cursor.length; i++) {
      const original = cursor[i] ?? '';
      if (original === '.') continue;
      // A neighbour in the alphabet changes the low bits too: the MAC's last character must still fail.
      const replacement = alphabet[(alphabet.indexOf(original) + 1) % alphabet.length] ?? 'A';
      expectInvalid(codec, 'tools/list', cursor.slice(0, i) + replacement + cursor.slice(i + 1));
    }
  });

  it('binds a cursor to its list', () => {
    const codec = createCursorCodec({ key });
    const cursor = codec.encode('tools/list', { offset: 2 });
    expectInvalid(codec, 'resources/list', cursor);
    const fromTool = codec.encode('git_log', { after: 'abc' });
    expectInvalid(codec, 'git_diff', fromTool);
    expect(codec.decode('git_log', fromTool)).toEqual({ after: 'abc' });
  });

  it('refuses a cursor minted with another key', () => {
    const ours = createCursorCodec({ key });
    const theirs = createCursorCodec({ key: randomBytes(32) });
    expectInvalid(ours, 'tools/list', theirs.encode('tools/list', { offset: 2 }));
  });

  it('refuses a payload re-signed under a different version prefix', () => {
    const codec = createCursorCodec({ key });
    const cursor = codec.encode('tools/list', { offset: 2 });
    expectInvalid(codec, 'tools/list', cursor.replace(/^v1\./, 'v2.'));
  });

  it('refuses garbage', () => {
    const codec = createCursorCodec({ key });
    for (const garbage of [
      '',
      'x',
      'v1',
      'v1..',
      'v1.a.b',
      'v1.!!!.???',
      '..',
      'v1.eyJwIjoxfQ',
      '%00',
      '🙂',
    ]) {
      expectInvalid(codec, 'tools/list', garbage);
    }
    // A well-signed envelope that is not JSON still fails cleanly.
    expectInvalid(codec, 'tools/list', `v1.${Buffer.from('not json').toString('base64url')}.abc`);
  });

  it('refuses a huge cursor before looking at it', () => {
    const codec = createCursorCodec({ key });
    expectInvalid(codec, 'tools/list', `v1.${'A'.repeat(MAX_CURSOR_LENGTH)}.${'B'.repeat(43)}`);
    expectInvalid(codec, 'tools/list', 'A'.repeat(10 * 1024 * 1024));
  });

  it('will not mint a cursor it would refuse', () => {
    const codec = createCursorCodec({ key });
    expect(() => codec.encode('list', { blob: 'x'.repeat(MAX_CURSOR_LENGTH) })).toThrow(RangeError);
  });

  it('expires cursors after ttlSeconds', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const codec = createCursorCodec({ key, ttlSeconds: 60 });
    const cursor = codec.encode('tools/list', { offset: 2 });
    vi.advanceTimersByTime(59_000);
    expect(codec.decode('tools/list', cursor)).toEqual({ offset: 2 });
    vi.advanceTimersByTime(1_000);
    expectInvalid(codec, 'tools/list', cursor);
  });

  it('with a ttl, refuses a cursor that carries no expiry', () => {
    const forever = createCursorCodec({ key });
    const expiring = createCursorCodec({ key, ttlSeconds: 60 });
    expectInvalid(expiring, 'tools/list', forever.encode('tools/list', { offset: 2 }));
  });

  it('applies a position guard', () => {
    const codec = createCursorCodec({ key });
    const isOffset = (v: JsonValue): v is { offset: number } =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && typeof v.offset === 'number';
    expect(codec.decode('l', codec.encode('l', { offset: 3 }), isOffset).offset).toBe(3);
    expectInvalidCall(() => codec.decode('l', codec.encode('l', 'nope'), isOffset));
  });

  it('rejects weak keys and bad options', () => {
    expect(() => createCursorCodec({ key: new Uint8Array(16) })).toThrow(TypeError);
    expect(() => createCursorCodec({ key, ttlSeconds: 0 })).toThrow(RangeError);
    expect(() => createCursorCodec({ key, ttlSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => createCursorCodec({ key }).encode('', 1)).toThrow(TypeError);
  });

  it('is unaffected by later changes to the caller key buffer', () => {
    const mutable = Uint8Array.from(key);
    const codec = createCursorCodec({ key: mutable });
    const cursor = codec.encode('l', 1);
    mutable.fill(0);
    expect(codec.decode('l', cursor)).toBe(1);
  });
});

describe('bound cursors', () => {
  const codec = createCursorCodec({ key });
  const isOffset = (value: { [field: string]: JsonValue }) => Number.isSafeInteger(value.o);
  const mismatch = 'This cursor belongs to other arguments; repeat the call that returned it.';

  it('round-trips a position for the same arguments, and the key is not part of it', () => {
    const k = argumentsKey('read_query', 'SELECT 1', [1]);
    const cursor = encodeBoundCursor(codec, 'read_query', k, { o: 500 });
    expect(decodeBoundCursor(codec, 'read_query', cursor, k, isOffset, mismatch)).toEqual({ o: 500 });
  });

  it('keys differ when any argument differs, and are stable otherwise', () => {
    expect(argumentsKey('a', 1)).toBe(argumentsKey('a', 1));
    expect(argumentsKey('a', 1)).not.toBe(argumentsKey('a', 2));
    expect(argumentsKey('a', 1)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('refuses a genuine cursor sent with other arguments with the tool’s sentence', () => {
    const cursor = encodeBoundCursor(codec, 'read_query', argumentsKey('one'), { o: 1 });
    expect(() =>
      decodeBoundCursor(codec, 'read_query', cursor, argumentsKey('two'), isOffset, mismatch),
    ).toThrow(new UserError(mismatch));
  });

  it('treats a cursor of the wrong shape, or without a key, as invalid', () => {
    const k = argumentsKey('x');
    const wrongShape = encodeBoundCursor(codec, 'read_query', k, { o: 'five' });
    expectInvalidCall(() => decodeBoundCursor(codec, 'read_query', wrongShape, k, isOffset, mismatch));
    const keyless = codec.encode('read_query', { o: 1 });
    expectInvalidCall(() => decodeBoundCursor(codec, 'read_query', keyless, k, isOffset, mismatch));
  });
});
