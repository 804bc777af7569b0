import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** Called when a 2026 `subscriptions/listen` stream opens and when it ends. */
export interface ListenHooks {
  onListen(owner: object, resourceUris: string[]): void;
  onListenEnd(owner: object): void;
}

/**
 * Wraps a transport to see 2026 `subscriptions/listen` streams open and close. The SDK owns the
 * streams and filters notifications per stream, but it does not say which URIs are wanted, and a
 * file watch should only run while someone listens: this tap tells the hub.
 */
export function tapListen(inner: Transport, hooks: ListenHooks): Transport {
  const open = new Map<string | number, object>();
  const end = (id: string | number) => {
    const owner = open.get(id);
    if (!owner) return;
    open.delete(id);
    hooks.onListenEnd(owner);
  };
  const endAll = () => {
    for (const id of [...open.keys()]) end(id);
  };
  const seeInbound = (message: JSONRPCMessage) => {
    if (!('method' in message)) return;
    if (message.method === 'subscriptions/listen' && 'id' in message) {
      const filter = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)
        ?.notifications;
      const uris = Array.isArray(filter?.resourceSubscriptions)
        ? filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string')
        : [];
      const owner = {};
      open.set(message.id, owner);
      hooks.onListen(owner, uris);
    } else if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) end(id);
    }
  };
  const send: Transport['send'] = (message, options) => {
    // The listen stream ends when the server answers its request (an error or a close).
    if (('result' in message || 'error' in message) && 'id' in message && message.id != null) end(message.id);
    return inner.send(message, options);
  };

  // A proxy, so optional members the SDK may probe (setProtocolVersion, …) pass through untouched.
  const tapped = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'send') return send;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, prop, value: unknown) {
      if (prop === 'onmessage' && typeof value === 'function') {
        const handler = value as NonNullable<Transport['onmessage']>;
        target.onmessage = (message, extra) => {
          seeInbound(message);
          handler(message, extra);
        };
        return true;
      }
      if (prop === 'onclose' && typeof value === 'function') {
        const handler = value as () => void;
        target.onclose = () => {
          endAll();
          handler();
        };
        return true;
      }
      return Reflect.set(target, prop, value);
    },
  });
  return tapped;
}
