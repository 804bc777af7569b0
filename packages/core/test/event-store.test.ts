/**
 * The bounded SSE event store of the 2025 HTTP leg: ids, replay after an id, the three caps
 * (events per stream, total bytes, age), eviction order, and isolation between sessions.
 */
import type { EventId, JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SeqRing } from '../src/runner/event-ring.js';
import {
  DEFAULT_EVENT_STORE_LIMITS,
  EVENT_OVERHEAD_BYTES,
  eventBytes,
  type SessionEventStore,
  SseEventStore,
} from '../src/runner/event-store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level: 'info', data: `event ${n}` },
});
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
/** What the SDK stores as a stream's priming event. */
const PRIMING = {} as JSONRPCMessage;

/** Bytes the store charges for `message`: two per character of its JSON, plus the fixed charge. */
const cost = (message: JSONRPCMessage) => JSON.stringify(message).length * 2 + EVENT_OVERHEAD_BYTES;

/** Replays after `id` and collects what was sent. */
async function replay(view: SessionEventStore, id: EventId) {
  const sent: { id: EventId; message: JSONRPCMessage }[] = [];
  const stream = await view.replayEventsAfter(id, {
    send: async (eventId, message) => {
      sent.push({ id: eventId, message });
    },
  });
  return { stream, sent };
}

async function storeAll(view: SessionEventStore, stream: string, messages: JSONRPCMessage[]) {
  const ids: EventId[] = [];
  for (const message of messages) ids.push(await view.storeEvent(stream, message));
  return ids;
}

describe('SeqRing', () => {
  it('keeps items in order across growth and wrap-around, addressed by sequence number', () => {
    const ring = new SeqRing<string>(5);
    for (const item of ['a', 'b', 'c']) ring.push(item);
    expect(ring.shift()).toBe('a');
    for (const item of ['d', 'e', 'f']) ring.push(item);
    expect(ring.full).toBe(true);
    expect(() => ring.push('g')).toThrow(/full/);
    expect([ring.firstSeq, ring.nextSeq]).toEqual([1, 6]);
    expect([1, 2, 3, 4, 5].map((seq) => ring.at(seq))).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect([ring.at(0), ring.at(6), ring.at(1.5)]).toEqual([undefined, undefined, undefined]);
    expect(ring.shift()).toBe('b');
    expect(ring.push('g')).toBe(6);
    expect(ring.peek()).toBe('c');
  });

  it('refuses a capacity below 1', () => {
    expect(() => new SeqRing(0)).toThrow(RangeError);
  });
});

describe('SseEventStore ids and replay', () => {
  it('hands out random, distinct, header-safe ids', async () => {
    const view = new SseEventStore().forSession();
    const ids = await storeAll(view, 's', [PRIMING, note(1), note(2), answer(1)]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('replays every later event of the same stream, in order, without the priming event', async () => {
    const view = new SseEventStore().forSession();
    const [priming, first, second] = await storeAll(view, 'post-1', [PRIMING, note(1), note(2)]);
    await storeAll(view, 'post-2', [PRIMING, note(99)]);
    const last = await view.storeEvent('post-1', answer(7));

    expect(await view.getStreamIdForEventId(priming as EventId)).toBe('post-1');
    const all = await replay(view, priming as EventId);
    expect(all.stream).toBe('post-1');
    expect(all.sent).toEqual([
      { id: first, message: note(1) },
      { id: second, message: note(2) },
      { id: last, message: answer(7) },
    ]);
    expect((await replay(view, second as EventId)).sent).toEqual([{ id: last, message: answer(7) }]);
    expect((await replay(view, last)).sent).toEqual([]);
  });

  it('replays a copy taken when the event was stored, not the live object', async () => {
    const view = new SseEventStore().forSession();
    const priming = await view.storeEvent('s', PRIMING);
    const message = note(1) as { params: { data: string } } & JSONRPCMessage;
    await view.storeEvent('s', message);
    message.params.data = 'changed afterwards';
    expect((await replay(view, priming)).sent[0]?.message).toEqual(note(1));
  });

  it('includes events stored while the replay is under way', async () => {
    const view = new SseEventStore().forSession();
    const [priming] = await storeAll(view, 's', [PRIMING, note(1)]);
    const sent: JSONRPCMessage[] = [];
    await view.replayEventsAfter(priming as EventId, {
      send: async (_id, message) => {
        sent.push(message);
        if (sent.length === 1) await view.storeEvent('s', answer(1));
      },
    });
    expect(sent).toEqual([note(1), answer(1)]);
  });

  it('knows nothing of an unknown id', async () => {
    const view = new SseEventStore().forSession();
    await storeAll(view, 's', [PRIMING, note(1)]);
    for (const id of ['', 'nope', 'AAAAAAAAAAAAAAAAAAAAAA', '_GET_stream_1']) {
      expect(await view.getStreamIdForEventId(id)).toBeUndefined();
      await expect(replay(view, id)).rejects.toThrow(/unknown/);
    }
  });
});

describe('SseEventStore isolation between sessions', () => {
  it("never finds or replays another session's events, even on the same stream id", async () => {
    const store = new SseEventStore();
    const a = store.forSession();
    const b = store.forSession();
    // The SDK names every session's standalone stream the same.
    const [aFirst] = await storeAll(a, '_GET_stream', [note(1), note(2)]);
    const [bFirst] = await storeAll(b, '_GET_stream', [note(10), note(11)]);

    expect(await b.getStreamIdForEventId(aFirst as EventId)).toBeUndefined();
    await expect(replay(b, aFirst as EventId)).rejects.toThrow(/unknown/);
    expect(await a.getStreamIdForEventId(bFirst as EventId)).toBeUndefined();
    expect((await replay(a, aFirst as EventId)).sent.map((e) => e.message)).toEqual([note(2)]);
    expect((await replay(b, bFirst as EventId)).sent.map((e) => e.message)).toEqual([note(11)]);
  });

  it("frees a closed session's events and keeps nothing it stores afterwards", async () => {
    const store = new SseEventStore();
    const a = store.forSession();
    const b = store.forSession();
    const [aFirst] = await storeAll(a, 's', [PRIMING, note(1)]);
    const [bFirst] = await storeAll(b, 's', [PRIMING, note(2)]);
    a.close();
    expect(store.size).toBe(2);
    expect(store.bytes).toBe(cost(PRIMING) + cost(note(2)));
    const late = await a.storeEvent('s', answer(1));
    expect(late).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(store.size).toBe(2);
    expect(await a.getStreamIdForEventId(aFirst as EventId)).toBeUndefined();
    expect(await a.getStreamIdForEventId(late)).toBeUndefined();
    expect((await replay(b, bFirst as EventId)).sent.map((e) => e.message)).toEqual([note(2)]);
  });
});

describe('SseEventStore caps', () => {
  it('keeps at most maxEventsPerStream events per stream, evicting the oldest', async () => {
    const store = new SseEventStore({ maxEventsPerStream: 3 });
    const view = store.forSession();
    const ids = await storeAll(view, 'busy', [note(1), note(2), note(3), note(4), note(5)]);
    const [other] = await storeAll(view, 'quiet', [note(100), note(101)]);

    expect(await view.getStreamIdForEventId(ids[0] as EventId)).toBeUndefined();
    expect(await view.getStreamIdForEventId(ids[1] as EventId)).toBeUndefined();
    expect((await replay(view, ids[2] as EventId)).sent.map((e) => e.message)).toEqual([note(4), note(5)]);
    // Another stream of the same session is not charged for the busy one.
    expect((await replay(view, other as EventId)).sent.map((e) => e.message)).toEqual([note(101)]);
    expect(store.size).toBe(5);
  });

  it('charges two bytes per character, what V8 may hold a string in, not its UTF-8 length', async () => {
    const store = new SseEventStore();
    const view = store.forSession();
    // Latin-1 text plus one character beyond it: V8 stores the whole string two bytes a character.
    const message = note(0) as { params: { data: string } } & JSONRPCMessage;
    message.params.data = `${'a'.repeat(10_000)}\u2028`;
    await view.storeEvent('s', message);
    expect(store.bytes).toBe(cost(message));
    expect(store.bytes).toBe(eventBytes(JSON.stringify(message)));
    expect(store.bytes).toBeGreaterThan(2 * 10_000);
    expect(store.bytes).toBeGreaterThan(Buffer.byteLength(JSON.stringify(message)) + EVENT_OVERHEAD_BYTES);
  });

  it('keeps at most maxTotalBytes across sessions, taking room from the session holding the most', async () => {
    const each = cost(note(1));
    const store = new SseEventStore({ maxTotalBytes: each * 4 });
    const a = store.forSession();
    const b = store.forSession();
    const [a1, a2] = await storeAll(a, 's', [note(1), note(2)]);
    const [b1, b2] = await storeAll(b, 's', [note(3), note(4)]);
    expect(store.bytes).toBe(each * 4);

    // b is the one growing: with its new event it holds the most, so its oldest goes.
    const [b3] = await storeAll(b, 's', [note(5)]);
    expect(store.bytes).toBeLessThanOrEqual(each * 4);
    expect(store.size).toBe(4);
    expect(await b.getStreamIdForEventId(b1 as EventId)).toBeUndefined();
    expect((await replay(a, a1 as EventId)).sent.map((e) => e.id)).toEqual([a2]);
    expect((await replay(b, b2 as EventId)).sent.map((e) => e.id)).toEqual([b3]);

    // A new session holds the least: the room comes from a session holding the most (a, b tie).
    const c = store.forSession();
    const [c1] = await storeAll(c, 's', [note(6)]);
    expect(await a.getStreamIdForEventId(a1 as EventId)).toBeUndefined();
    expect((await replay(a, a2 as EventId)).sent).toEqual([]);
    expect((await replay(b, b2 as EventId)).sent.map((e) => e.id)).toEqual([b3]);
    expect(await c.getStreamIdForEventId(c1 as EventId)).toBe('s');
  });

  it("never lets one busy session push out a quiet session's events", async () => {
    // Three-digit numbers: every message costs the same.
    const each = cost(note(100));
    const store = new SseEventStore({ maxTotalBytes: each * 10 });
    const quiet = store.forSession();
    const busy = store.forSession();
    const [q1, q2] = await storeAll(quiet, '_GET_stream', [note(101), note(102)]);
    const flood = await storeAll(
      busy,
      'post-1',
      Array.from({ length: 100 }, (_, i) => note(200 + i)),
    );
    // More streams of the busy session: it gives up the oldest event across all of them.
    const [other] = await storeAll(busy, 'post-2', [note(999)]);
    expect(store.bytes).toBeLessThanOrEqual(each * 10);
    expect((await replay(quiet, q1 as EventId)).sent.map((e) => e.id)).toEqual([q2]);
    expect(await busy.getStreamIdForEventId(flood[0] as EventId)).toBeUndefined();
    expect(await busy.getStreamIdForEventId(flood.at(-1) as EventId)).toBe('post-1');
    expect(await busy.getStreamIdForEventId(other as EventId)).toBe('post-2');
    expect(store.size).toBe(10);
  });

  it('never keeps an event larger than the byte cap, nor the events before it on its stream', async () => {
    const store = new SseEventStore({ maxTotalBytes: 4_096 });
    const view = store.forSession();
    const [other] = await storeAll(view, 'other', [note(0), note(1)]);
    const [priming, first] = await storeAll(view, 's', [PRIMING, note(1)]);
    const huge: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(8_192) } };
    const hugeId = await view.storeEvent('s', huge);
    const after = await view.storeEvent('s', note(2));

    // A resume from before the gap is refused rather than silently skipping the big event.
    for (const id of [priming, first, hugeId])
      expect(await view.getStreamIdForEventId(id as EventId)).toBeUndefined();
    expect(await view.getStreamIdForEventId(after)).toBe('s');
    expect((await replay(view, other as EventId)).sent.map((e) => e.message)).toEqual([note(1)]);
    expect(store.bytes).toBeLessThanOrEqual(4_096);
  });

  it('drops events older than maxAgeMs', async () => {
    let now = 1_000_000;
    const store = new SseEventStore({ maxAgeMs: 60_000, now: () => now });
    const view = store.forSession();
    const [old] = await storeAll(view, 's', [note(1)]);
    now += 30_000;
    const [young, younger] = await storeAll(view, 's', [note(2), note(3)]);
    now += 30_001;
    expect(await view.getStreamIdForEventId(old as EventId)).toBeUndefined();
    expect((await replay(view, young as EventId)).sent.map((e) => e.id)).toEqual([younger]);
    now += 30_000;
    expect(await view.getStreamIdForEventId(young as EventId)).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('has documented defaults and refuses unusable limits', () => {
    expect(new SseEventStore().limits).toEqual(DEFAULT_EVENT_STORE_LIMITS);
    expect(DEFAULT_EVENT_STORE_LIMITS).toEqual({
      maxEventsPerStream: 1_000,
      maxTotalBytes: 32 * 1024 * 1024,
      maxAgeMs: 300_000,
    });
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new SseEventStore({ maxEventsPerStream: bad })).toThrow(/maxEventsPerStream/);
      expect(() => new SseEventStore({ maxTotalBytes: bad })).toThrow(/maxTotalBytes/);
      expect(() => new SseEventStore({ maxAgeMs: bad })).toThrow(/maxAgeMs/);
    }
  });
});
