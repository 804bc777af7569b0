/**
 * The bounded SSE event store of the 2025-era HTTP leg. With an `eventStore` the SDK's transport
 * sends a priming event (an id and empty data) first on every POST stream, stamps every event
 * with an id, and answers a GET carrying `Last-Event-ID` by replaying what the client missed
 * (SEP-1699). The SDK ships no store of its own (SDK 2.4), and an unbounded one would let any
 * client grow the process without limit, so this one keeps a ring per stream and evicts oldest
 * first under three caps: events per stream, bytes in total, and age.
 *
 * One store serves the whole HTTP server, so the byte cap bounds the process whatever the session
 * count; each session sees it through its own {@link SessionEventStore}. When the byte cap is
 * reached the session holding the most bytes gives up its oldest event, so one busy session
 * cannot push out a quiet session's events. Event ids are 128 random
 * bits, and a lookup only finds events of the session asking: a client of session A can neither
 * guess nor replay session B's events, and a stolen id is useless outside its session.
 */
import { randomBytes } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import { SeqRing } from './event-ring.js';

export interface EventStoreLimits {
  /**
   * Events kept per stream. The standalone GET stream lives as long as its session and a POST
   * stream can carry any number of progress and log notifications: without a per-stream cap one
   * chatty stream would keep everything it ever sent. A client that fell further behind than this
   * cannot be caught up and gets a 400 instead of a replay with a hole in it.
   */
  maxEventsPerStream: number;
  /**
   * Bytes kept across every session and stream: each serialised message at two bytes per
   * character (what V8 may hold it in), plus a fixed charge per event. Tool results can reach megabytes and sessions are many, so this is the cap that
   * bounds the process's memory. An event larger than the whole cap is never kept.
   */
  maxTotalBytes: number;
  /**
   * Age after which an event is dropped, in ms. Resumption exists for a dropped connection that
   * comes back within seconds (the client waits `retry` ms); keeping old results longer would
   * only hold memory and data no client will ask for.
   */
  maxAgeMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_EVENT_STORE_LIMITS: Readonly<EventStoreLimits> = Object.freeze({
  maxEventsPerStream: 1_000,
  maxTotalBytes: 32 * MiB,
  maxAgeMs: 5 * 60_000,
});

/** Charged per event on top of its JSON, for the id, the bookkeeping object and the map entry. */
export const EVENT_OVERHEAD_BYTES = 256;

/** @internal One SSE stream of one session. */
export interface Stream {
  readonly id: StreamId;
  readonly owner: SessionEventStore;
  readonly ring: SeqRing<StoredEvent>;
}

/** @internal One kept event. */
export interface StoredEvent {
  readonly id: EventId;
  readonly stream: Stream;
  readonly seq: number;
  /** Store-wide arrival number: orders the heads of a session's streams by age. */
  readonly order: number;
  /** Serialised when stored: exact size, and immune to later changes of the message object. */
  readonly json: string;
  /** The SDK's priming event (`{}`): it holds a place in the stream but is never replayed. */
  readonly priming: boolean;
  readonly bytes: number;
  readonly at: number;
}

export interface SseEventStoreOptions extends Partial<EventStoreLimits> {
  /** Clock, replaceable in tests. */
  now?: () => number;
}

/** The store of one HTTP server; hand each 2025 session its own {@link SseEventStore.forSession}. */
export class SseEventStore {
  readonly limits: Readonly<EventStoreLimits>;
  /** Every kept event in insertion order, which is also age order: the head is evicted first. */
  readonly #events = new Map<EventId, StoredEvent>();
  /** Bytes charged per session; a session appears only while it holds events. */
  readonly #sessions = new Map<SessionEventStore, number>();
  #bytes = 0;
  #order = 0;
  readonly #now: () => number;

  constructor(options: SseEventStoreOptions = {}) {
    const limits = { ...DEFAULT_EVENT_STORE_LIMITS };
    for (const key of Object.keys(limits) as (keyof EventStoreLimits)[]) {
      const value = options[key];
      if (value === undefined) continue;
      if (!Number.isFinite(value) || value < 1) {
        throw new RangeError(`The event store's ${key} must be a positive number, not ${value}.`);
      }
      limits[key] = key === 'maxEventsPerStream' ? Math.floor(value) : value;
    }
    this.limits = Object.freeze(limits);
    this.#now = options.now ?? Date.now;
  }

  /** Events kept right now, across all sessions. */
  get size(): number {
    return this.#events.size;
  }

  /** Bytes charged right now, across all sessions. */
  get bytes(): number {
    return this.#bytes;
  }

  /** A view for one session; close it when the session ends to free its events. */
  forSession(): SessionEventStore {
    return new SessionEventStore(this);
  }

  /** @internal Used by {@link SessionEventStore.storeEvent}. */
  store(owner: SessionEventStore, streamId: StreamId, message: JSONRPCMessage): EventId {
    const id = randomBytes(16).toString('base64url');
    // A session already closed has no client left to resume: hand out an id, keep nothing.
    if (owner.closed) return id;
    const json = JSON.stringify(message);
    const bytes = eventBytes(json);
    this.#expire();
    const existing = owner.streams.get(streamId);
    if (bytes > this.limits.maxTotalBytes) {
      // Not kept, so everything before it goes too: a client resuming from an earlier id gets a
      // 400 rather than a replay that silently skips this event.
      if (existing) while (existing.ring.length > 0) this.#evict(existing.ring.peek() as StoredEvent);
      return id;
    }
    if (existing) while (existing.ring.full) this.#evict(existing.ring.peek() as StoredEvent);
    while (this.#bytes + bytes > this.limits.maxTotalBytes) {
      const victim = this.#victim(owner, bytes);
      if (victim === undefined) break;
      this.#evict(victim);
    }
    // Looked up again: the evictions above may have emptied and dropped the stream.
    let stream = owner.streams.get(streamId);
    if (!stream) {
      stream = { id: streamId, owner, ring: new SeqRing(this.limits.maxEventsPerStream) };
      owner.streams.set(streamId, stream);
    }
    const priming = isPriming(message);
    const seq = stream.ring.nextSeq;
    const order = this.#order++;
    const event: StoredEvent = { id, stream, seq, order, json, priming, bytes, at: this.#now() };
    stream.ring.push(event);
    this.#events.set(id, event);
    this.#bytes += bytes;
    this.#sessions.set(owner, (this.#sessions.get(owner) ?? 0) + bytes);
    return id;
  }

  /** @internal The event `id` names, if it is still kept and belongs to `owner`. */
  find(owner: SessionEventStore, id: EventId): StoredEvent | undefined {
    this.#expire();
    const event = this.#events.get(id);
    return event?.stream.owner === owner ? event : undefined;
  }

  /** @internal Drops every event of `owner`. */
  drop(owner: SessionEventStore): void {
    for (const stream of [...owner.streams.values()]) {
      while (stream.ring.length > 0) this.#evict(stream.ring.peek() as StoredEvent);
    }
    owner.streams.clear();
  }

  /**
   * Drops events older than `maxAgeMs`. Lazily, on each store and lookup: no timer to manage, and
   * while nothing happens the byte cap still bounds what is held (closed sessions free theirs).
   */
  #expire(): void {
    const cutoff = this.#now() - this.limits.maxAgeMs;
    for (const event of this.#events.values()) {
      if (event.at > cutoff) break;
      this.#evict(event);
    }
  }

  /**
   * The event to drop so `incoming` more bytes of `storing` fit: the oldest event of the session
   * holding the most bytes, counting what `storing` is about to add. A session flooding the store
   * so evicts its own events first, and a quiet one keeps its few.
   */
  #victim(storing: SessionEventStore, incoming: number): StoredEvent | undefined {
    const own = this.#sessions.get(storing);
    // On a tie the storing session gives way: it is the one growing.
    let from = own === undefined ? undefined : storing;
    let most = own === undefined ? 0 : own + incoming;
    for (const [session, bytes] of this.#sessions) {
      if (session !== storing && bytes > most) {
        from = session;
        most = bytes;
      }
    }
    if (from === undefined) return undefined;
    let oldest: StoredEvent | undefined;
    for (const stream of from.streams.values()) {
      const head = stream.ring.peek();
      if (head !== undefined && (oldest === undefined || head.order < oldest.order)) oldest = head;
    }
    return oldest;
  }

  /** Removes `event`, which is always the oldest of its stream (insertion order is age order). */
  #evict(event: StoredEvent): void {
    const { ring, owner, id } = event.stream;
    if (ring.peek() !== event) throw new Error('Event store invariant broken: evicting a non-head event.');
    ring.shift();
    this.#events.delete(event.id);
    this.#bytes -= event.bytes;
    const left = (this.#sessions.get(owner) ?? 0) - event.bytes;
    if (left > 0) this.#sessions.set(owner, left);
    else this.#sessions.delete(owner);
    if (ring.length === 0 && owner.streams.get(id) === event.stream) owner.streams.delete(id);
  }
}

/**
 * One session's view of the shared store: the `eventStore` given to that session's transport.
 * Lookups only ever see this session's events.
 */
export class SessionEventStore implements EventStore {
  readonly #shared: SseEventStore;
  /** @internal This session's streams by the SDK's stream id. */
  readonly streams = new Map<StreamId, Stream>();
  #closed = false;

  constructor(shared: SseEventStore) {
    this.#shared = shared;
  }

  get closed(): boolean {
    return this.#closed;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.#shared.store(this, streamId, message);
  }

  /** The stream an id belongs to; `undefined` (the SDK answers 400) when unknown here. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#shared.find(this, eventId)?.stream.id;
  }

  /** Sends every event of the stream after `lastEventId`, oldest first, and returns the stream id. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const from = this.#shared.find(this, lastEventId);
    if (from === undefined) throw new Error('The event to resume after is unknown, expired or evicted.');
    const { stream } = from;
    // The ring is read live, so events stored while the replay is under way are sent as well.
    for (let seq = from.seq + 1; seq < stream.ring.nextSeq; seq++) {
      const event = stream.ring.at(seq);
      if (event === undefined) throw new Error('Events to replay were evicted while replaying them.');
      if (!event.priming) await send(event.id, JSON.parse(event.json) as JSONRPCMessage);
    }
    return stream.id;
  }

  /** Frees this session's events; later events are given ids but not kept. */
  close(): void {
    this.#closed = true;
    this.#shared.drop(this);
  }
}

/**
 * Bytes charged for an event serialised as `json`. V8 keeps a string in one byte per character
 * when every character is Latin-1 and in two otherwise, so a UTF-8 count undercounts up to
 * twofold (a megabyte of ASCII with one U+2028 in it is held in two megabytes); `length * 2`
 * never does.
 */
export function eventBytes(json: string): number {
  return json.length * 2 + EVENT_OVERHEAD_BYTES;
}

/** The SDK stores its priming event as an empty object: no `jsonrpc`, nothing to deliver. */
function isPriming(message: JSONRPCMessage): boolean {
  return Object.keys(message).length === 0;
}
