import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { tapListen } from '../src/runner/listen-tap.js';

/** A transport with nothing behind it: the test plays the client by calling `receive`. */
class FakeTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  sessionId?: string | undefined = 'fake-session';
  readonly sent: JSONRPCMessage[] = [];
  readonly versions: string[] = [];
  started = false;
  closed = 0;

  async start(): Promise<void> {
    this.started = true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }

  async close(): Promise<void> {
    this.closed++;
    this.onclose?.();
  }

  setProtocolVersion(version: string): void {
    this.versions.push(version);
  }

  receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }
}

function setup() {
  const inner = new FakeTransport();
  const listens: { owner: object; uris: string[] }[] = [];
  const ends: object[] = [];
  const tapped = tapListen(inner, {
    onListen: (owner, uris) => listens.push({ owner, uris }),
    onListenEnd: (owner) => ends.push(owner),
  });
  const received: { message: JSONRPCMessage; extra?: MessageExtraInfo }[] = [];
  let serverClosed = 0;
  // What the SDK does when it connects to a transport.
  tapped.onmessage = (message, extra) => {
    received.push(extra === undefined ? { message } : { message, extra });
  };
  tapped.onclose = () => {
    serverClosed++;
  };
  return {
    inner,
    tapped,
    listens,
    ends,
    received,
    get serverClosed() {
      return serverClosed;
    },
  };
}

const listen = (id: string | number, uris?: unknown): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'subscriptions/listen',
  params: { notifications: uris === undefined ? {} : { resourceSubscriptions: uris } },
});

const cancelled = (requestId: string | number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'done' },
});

describe('tapListen', () => {
  it('reports a listen stream with its resource URIs', () => {
    const t = setup();
    t.inner.receive(listen(1, ['file:///a', 'file:///b']));
    expect(t.listens).toHaveLength(1);
    expect(t.listens[0]?.uris).toEqual(['file:///a', 'file:///b']);
    // The SDK still sees the request.
    expect(t.received.map((r) => r.message)).toEqual([listen(1, ['file:///a', 'file:///b'])]);
  });

  it('reports an empty URI list when the filter has none, and drops non-strings', () => {
    const t = setup();
    t.inner.receive(listen(1));
    t.inner.receive(listen(2, ['file:///ok', 42, null]));
    t.inner.receive(listen(3, 'file:///not-an-array'));
    expect(t.listens.map((l) => l.uris)).toEqual([[], ['file:///ok'], []]);
    expect(new Set(t.listens.map((l) => l.owner)).size).toBe(3);
  });

  it('ends the stream once on notifications/cancelled for its id', () => {
    const t = setup();
    t.inner.receive(listen('L1', ['file:///a']));
    t.inner.receive(cancelled('L1'));
    t.inner.receive(cancelled('L1'));
    expect(t.ends).toEqual([t.listens[0]?.owner]);
    expect(t.ends[0]).toBe(t.listens[0]?.owner);
  });

  it('ends the stream once when the server answers its request', async () => {
    const t = setup();
    t.inner.receive(listen(7, ['file:///a']));
    await t.tapped.send({ jsonrpc: '2.0', id: 7, result: {} });
    await t.tapped.send({ jsonrpc: '2.0', id: 7, result: {} });
    t.inner.receive(cancelled(7));
    expect(t.ends).toHaveLength(1);
    expect(t.ends[0]).toBe(t.listens[0]?.owner);
    expect(t.inner.sent).toHaveLength(2);
  });

  it('ends the stream when the server answers with an error', async () => {
    const t = setup();
    t.inner.receive(listen(8, ['file:///a']));
    await t.tapped.send({ jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'no' } });
    expect(t.ends).toEqual([t.listens[0]?.owner]);
  });

  it('ends every open stream once when the transport closes, and still tells the server', async () => {
    const t = setup();
    t.inner.receive(listen(1, ['file:///a']));
    t.inner.receive(listen(2, ['file:///b']));
    t.inner.receive(cancelled(1));
    await t.tapped.close();
    expect(t.inner.closed).toBe(1);
    expect(t.serverClosed).toBe(1);
    expect(t.ends).toEqual([t.listens[0]?.owner, t.listens[1]?.owner]);
    t.inner.onclose?.();
    expect(t.ends).toHaveLength(2);
  });

  it('keeps streams apart: ending one leaves the other open', async () => {
    const t = setup();
    t.inner.receive(listen(1, ['file:///a']));
    t.inner.receive(listen(2, ['file:///b']));
    await t.tapped.send({ jsonrpc: '2.0', id: 2, result: {} });
    expect(t.ends).toEqual([t.listens[1]?.owner]);
  });

  it('ignores cancellations and responses for other requests', async () => {
    const t = setup();
    t.inner.receive(listen(1, ['file:///a']));
    t.inner.receive(cancelled(99));
    t.inner.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} });
    await t.tapped.send({ jsonrpc: '2.0', id: 2, result: {} });
    // A server-to-client request that happens to reuse the id is not an answer.
    await t.tapped.send({ jsonrpc: '2.0', id: 1, method: 'roots/list' });
    // Nor is a client's response to a server request with that id.
    t.inner.receive({ jsonrpc: '2.0', id: 1, result: { roots: [] } });
    expect(t.ends).toEqual([]);
  });

  it('passes other messages through unchanged, with their extra info', async () => {
    const t = setup();
    const request: JSONRPCMessage = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'x', arguments: {} },
    };
    const extra: MessageExtraInfo = { authInfo: { token: 't', clientId: 'c', scopes: [] } };
    t.inner.receive(request, extra);
    t.inner.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(t.received).toEqual([
      { message: request, extra },
      { message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
    ]);
    expect(t.received[0]?.message).toBe(request);
    const notification: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///a' },
    };
    await t.tapped.send(notification);
    expect(t.inner.sent).toEqual([notification]);
    expect(t.inner.sent[0]).toBe(notification);
    expect(t.listens).toEqual([]);
    expect(t.ends).toEqual([]);
  });

  it('passes optional members and plain properties through', async () => {
    const t = setup();
    expect(typeof t.tapped.setProtocolVersion).toBe('function');
    t.tapped.setProtocolVersion?.('2026-07-28');
    expect(t.inner.versions).toEqual(['2026-07-28']);
    expect(t.tapped.sessionId).toBe('fake-session');
    expect(t.tapped.setSupportedProtocolVersions).toBeUndefined();
    await t.tapped.start();
    expect(t.inner.started).toBe(true);
    const errors: Error[] = [];
    t.tapped.onerror = (e) => errors.push(e);
    t.inner.onerror?.(new Error('boom'));
    expect(errors.map((e) => e.message)).toEqual(['boom']);
  });

  it('passes a method-less transport through without inventing members', () => {
    const inner: Transport = {
      start: async () => {},
      send: async () => {},
      close: async () => {},
    };
    const tapped = tapListen(inner, { onListen: () => {}, onListenEnd: () => {} });
    expect(tapped.setProtocolVersion).toBeUndefined();
    expect('setProtocolVersion' in tapped).toBe(false);
  });
});
