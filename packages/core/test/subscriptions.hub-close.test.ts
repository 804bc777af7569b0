/**
 * SubscriptionHub.close: every watch closed (even one still starting), pending timers dropped, new
 * work refused, and closing again is harmless.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../src/errors/index.js';
import { closeHubs, deferred, fakeWatches, makeHub, recorder } from './subscriptions-hub-kit.js';

afterEach(closeHubs);

describe('SubscriptionHub.close', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes every watch, drops pending timers, refuses new work, and is idempotent', async () => {
    vi.useFakeTimers();
    const hub = makeHub({ debounceMs: 30 });
    const watches = fakeWatches();
    hub.addWatchProvider(() => watches.factory);
    const listener = recorder();
    hub.addTarget(listener);
    const owner = {};
    await hub.acquire(owner, 'note://a');
    await hub.acquire(owner, 'note://b');
    hub.resourceUpdated('note://a');
    watches.trigger('note://b');
    hub.listChanged('tools');
    expect(vi.getTimerCount()).toBe(3);

    await Promise.all([hub.close(), hub.close()]);
    await hub.close();
    expect(watches.closed.sort()).toEqual(['note://a', 'note://b']);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 0 });
    expect(vi.getTimerCount()).toBe(0);

    hub.resourceUpdated('note://a');
    hub.listChanged('tools');
    watches.trigger('note://a');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(listener.updates).toEqual([]);
    expect(listener.lists).toEqual([]);
    await expect(hub.acquire(owner, 'note://c')).rejects.toBeInstanceOf(UserError);
  });

  it('closes a watch that is still starting when the hub closes', async () => {
    const hub = makeHub();
    const gate = deferred<void>();
    let closes = 0;
    hub.addWatchProvider(() => async () => {
      await gate.promise;
      return { close: () => void closes++ };
    });
    const acquiring = hub.acquire({}, 'note://a');
    const closing = hub.close();
    gate.resolve();
    await Promise.all([acquiring, closing]);
    expect(closes).toBe(1);
  });
});
