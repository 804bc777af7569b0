/**
 * SubscriptionHub watches: one watch per URI while it has owners, providers, the cap on URIs,
 * concurrent acquires, and watches that fail or finish starting late.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../src/errors/index.js';
import {
  closeHubs,
  deferred,
  fakeWatches,
  makeHub,
  memoryLog,
  recorder,
  sleep,
} from './subscriptions-hub-kit.js';

afterEach(closeHubs);

describe('SubscriptionHub watches', () => {
  it('starts one watch per URI on the first owner and stops it when the last owner leaves', async () => {
    const hub = makeHub();
    const watches = fakeWatches();
    hub.addWatchProvider(() => watches.factory);
    const alice = {};
    const bob = {};
    await hub.acquire(alice, 'note://a');
    await hub.acquire(alice, 'note://a'); // idempotent
    await hub.acquire(bob, 'note://a');
    expect(watches.started).toEqual(['note://a']);
    expect(hub.stats).toEqual({ watches: 1, owners: 2, targets: 0 });

    await hub.release(alice, 'note://a');
    expect(watches.closed).toEqual([]);
    await hub.release(alice, 'note://a'); // already released: no-op
    await hub.release(bob, 'note://a');
    expect(watches.closed).toEqual(['note://a']);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 0 });
  });

  it('turns a watch trigger into a notification, and ignores triggers after release', async () => {
    const hub = makeHub();
    const watches = fakeWatches();
    hub.addWatchProvider(() => watches.factory);
    const listener = recorder();
    hub.addTarget(listener);
    const owner = {};
    await hub.acquire(owner, 'note://a');
    watches.trigger('note://a');
    watches.trigger('note://a');
    await vi.waitFor(() => expect(listener.updates).toEqual(['note://a']));

    await hub.release(owner, 'note://a');
    watches.trigger('note://a'); // a late event from a closing watcher
    await sleep(50);
    expect(listener.updates).toEqual(['note://a']);
  });

  it('releaseOwner releases everything the owner held, leaving other owners alone', async () => {
    const hub = makeHub();
    const watches = fakeWatches();
    hub.addWatchProvider(() => watches.factory);
    const session = {};
    const other = {};
    await hub.acquire(session, 'note://a');
    await hub.acquire(session, 'note://b');
    await hub.acquire(other, 'note://b');
    await hub.releaseOwner(session);
    expect(watches.closed).toEqual(['note://a']);
    expect(hub.stats).toEqual({ watches: 1, owners: 1, targets: 0 });
    await hub.releaseOwner(other);
    await hub.releaseOwner(other);
    expect(watches.closed.sort()).toEqual(['note://a', 'note://b']);
    expect(hub.stats.watches).toBe(0);
  });

  it('uses the first provider that returns a factory, and accepts URIs no provider handles', async () => {
    const hub = makeHub();
    const first = fakeWatches();
    const second = fakeWatches();
    hub.addWatchProvider((uri) => (uri.startsWith('a:') ? first.factory : undefined));
    hub.addWatchProvider(() => second.factory);
    hub.addWatchProvider(() => {
      throw new Error('never consulted');
    });
    await hub.acquire({}, 'a:1');
    await hub.acquire({}, 'b:1');
    expect(first.started).toEqual(['a:1']);
    expect(second.started).toEqual(['b:1']);

    const bare = makeHub();
    const listener = recorder();
    bare.addTarget(listener, { owner: listener });
    await bare.acquire(listener, 'plain:1');
    expect(bare.stats.watches).toBe(1);
    bare.resourceUpdated('plain:1');
    await vi.waitFor(() => expect(listener.updates).toEqual(['plain:1']));
  });

  it('caps distinct URIs, while letting another owner join a URI already watched', async () => {
    const hub = makeHub({ maxWatches: 2 });
    const alice = {};
    const bob = {};
    await hub.acquire(alice, 'note://1');
    await hub.acquire(alice, 'note://2');
    const third = hub.acquire(alice, 'note://3');
    await expect(third).rejects.toBeInstanceOf(UserError);
    await expect(third).rejects.toThrow(
      'Too many resources are being watched (2); unsubscribe from some first.',
    );
    await hub.acquire(bob, 'note://2');
    expect(hub.stats).toEqual({ watches: 2, owners: 2, targets: 0 });
    await hub.release(alice, 'note://1');
    await hub.acquire(bob, 'note://3');
    expect(hub.stats.watches).toBe(2);
  });

  it('starts ONE watch for concurrent acquires of the same URI', async () => {
    const hub = makeHub();
    const gate = deferred<void>();
    let starts = 0;
    hub.addWatchProvider(() => async () => {
      starts++;
      await gate.promise;
      return { close() {} };
    });
    const first = hub.acquire({}, 'note://a');
    const second = hub.acquire({}, 'note://a');
    expect(hub.stats).toEqual({ watches: 1, owners: 2, targets: 0 });
    gate.resolve();
    await Promise.all([first, second]);
    expect(starts).toBe(1);
  });

  it('closes a watch that finishes starting after its last owner released it', async () => {
    const hub = makeHub();
    const listener = recorder();
    hub.addTarget(listener);
    const gate = deferred<void>();
    let closes = 0;
    let trigger: (() => void) | undefined;
    hub.addWatchProvider(() => async (_uri, changed) => {
      trigger = changed;
      await gate.promise;
      return { close: () => void closes++ };
    });
    const owner = {};
    const acquiring = hub.acquire(owner, 'note://a');
    const releasing = hub.release(owner, 'note://a');
    expect(hub.stats.watches).toBe(0);
    expect(closes).toBe(0);
    gate.resolve();
    await Promise.all([acquiring, releasing]);
    expect(closes).toBe(1);
    trigger?.();
    await sleep(50);
    expect(listener.updates).toEqual([]);
  });

  it('rejects with a UserError when the watch cannot start, for every waiting owner, and stays consistent', async () => {
    const log = memoryLog();
    const hub = makeHub({ log, maxWatches: 1 });
    const gate = deferred<void>();
    let attempts = 0;
    hub.addWatchProvider(() => async () => {
      attempts++;
      if (attempts === 1) {
        await gate.promise;
        throw new Error('ENOSPC: System limit for number of file watchers reached');
      }
      return { close() {} };
    });
    const alice = {};
    const bob = {};
    const first = hub.acquire(alice, 'file:///a');
    const second = hub.acquire(bob, 'file:///a');
    gate.resolve();
    for (const attempt of [first, second]) {
      await expect(attempt).rejects.toBeInstanceOf(UserError);
      await expect(attempt).rejects.toThrow('cannot be watched');
    }
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 0 });
    expect(log.lines.some((line) => line.includes('ENOSPC'))).toBe(true);

    // The failed URI does not occupy the cap, and a retry starts afresh.
    await hub.acquire(alice, 'file:///a');
    expect(attempts).toBe(2);
    expect(hub.stats).toEqual({ watches: 1, owners: 1, targets: 0 });
  });

  it('turns a synchronously throwing factory or provider into a UserError', async () => {
    const hub = makeHub();
    hub.addWatchProvider((uri) => {
      if (uri === 'bad:provider') throw new Error('bad uri');
      return () => {
        throw new Error('no watch');
      };
    });
    await expect(hub.acquire({}, 'bad:factory')).rejects.toBeInstanceOf(UserError);
    await expect(hub.acquire({}, 'bad:provider')).rejects.toBeInstanceOf(UserError);
    expect(hub.stats).toEqual({ watches: 0, owners: 0, targets: 0 });
  });
});
