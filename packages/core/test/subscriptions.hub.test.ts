import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserError } from '../src/errors/index.js';
import type { Logger } from '../src/logging/logger.js';
import type { SubscriptionHubOptions } from '../src/subscriptions/hub.js';
import { SubscriptionHub } from '../src/subscriptions/hub.js';
import type { ListKind, NotificationTarget, WatchFactory } from '../src/subscriptions/index.js';

/** A target that records what reached it. */
function recorder(): NotificationTarget & { updates: string[]; lists: ListKind[] } {
  const updates: string[] = [];
  const lists: ListKind[] = [];
  return {
    updates,
    lists,
    resourceUpdated: (uri) => {
      updates.push(uri);
    },
    listChanged: (kind) => {
      lists.push(kind);
    },
  };
}

function memoryLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => lines.push(`${level}: ${message}`);
  return {
    lines,
    level: 'debug',
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

/** A watch factory whose sources the test can trigger and inspect. */
function fakeWatches() {
  const started: string[] = [];
  const closed: string[] = [];
  const triggers = new Map<string, () => void>();
  const factory: WatchFactory = (uri, changed) => {
    started.push(uri);
    triggers.set(uri, changed);
    return { close: () => void closed.push(uri) };
  };
  return { factory, started, closed, trigger: (uri: string) => triggers.get(uri)?.() };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hubs: SubscriptionHub[] = [];
function makeHub(options: SubscriptionHubOptions = {}): SubscriptionHub {
  const hub = new SubscriptionHub({ debounceMs: 20, ...options });
  hubs.push(hub);
  return hub;
}
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

describe('SubscriptionHub delivery', () => {
  it('sends an owned target only the URIs its owner acquired, and an unowned target everything', async () => {
    const hub = makeHub();
    const alice = {};
    const bob = {};
    const toAlice = recorder();
    const toBob = recorder();
    const listener = recorder();
    hub.addTarget(toAlice, { owner: alice });
    hub.addTarget(toBob, { owner: bob });
    hub.addTarget(listener);
    await hub.acquire(alice, 'note://a');
    await hub.acquire(bob, 'note://b');

    hub.resourceUpdated('note://a');
    hub.resourceUpdated('note://b');
    hub.resourceUpdated('note://c');
    await vi.waitFor(() => expect(listener.updates).toHaveLength(3));
    expect(listener.updates.sort()).toEqual(['note://a', 'note://b', 'note://c']);
    expect(toAlice.updates).toEqual(['note://a']);
    expect(toBob.updates).toEqual(['note://b']);

    // After releasing, the owner's target no longer hears about the URI.
    await hub.release(alice, 'note://a');
    hub.resourceUpdated('note://a');
    await vi.waitFor(() => expect(listener.updates).toHaveLength(4));
    expect(toAlice.updates).toEqual(['note://a']);
  });

  it('coalesces a burst per URI into one trailing notification', async () => {
    const hub = makeHub({ debounceMs: 30 });
    const listener = recorder();
    hub.addTarget(listener);
    for (let i = 0; i < 10; i++) {
      hub.resourceUpdated('note://a');
      hub.resourceUpdated('note://b');
    }
    expect(listener.updates).toEqual([]);
    await vi.waitFor(() => expect(listener.updates).toHaveLength(2));
    await sleep(60);
    expect(listener.updates.sort()).toEqual(['note://a', 'note://b']);
  });

  it('coalesces listChanged per kind and sends it to every target, owned or not', async () => {
    const hub = makeHub();
    const owned = recorder();
    const unowned = recorder();
    hub.addTarget(owned, { owner: {} });
    hub.addTarget(unowned);
    for (let i = 0; i < 5; i++) {
      hub.listChanged('resources');
      hub.listChanged('tools');
    }
    await vi.waitFor(() => expect(unowned.lists).toHaveLength(2));
    await sleep(50);
    expect(unowned.lists.sort()).toEqual(['resources', 'tools']);
    expect(owned.lists.sort()).toEqual(['resources', 'tools']);
  });

  it('keeps delivering to other targets when one throws or rejects, and logs at debug', async () => {
    const log = memoryLog();
    const hub = makeHub({ log });
    hub.addTarget({
      resourceUpdated: () => {
        throw new Error('connection closed');
      },
      listChanged: () => Promise.reject(new Error('stream gone')),
    });
    const healthy = recorder();
    hub.addTarget(healthy);
    hub.resourceUpdated('note://a');
    hub.listChanged('prompts');
    await vi.waitFor(() => {
      expect(healthy.updates).toEqual(['note://a']);
      expect(healthy.lists).toEqual(['prompts']);
      expect(log.lines.filter((line) => line.startsWith('debug:'))).toHaveLength(2);
    });
    expect(log.lines.join('\n')).toMatch(
      /connection closed[\s\S]*stream gone|stream gone[\s\S]*connection closed/,
    );
  });

  it('stops delivering to a removed target', async () => {
    const hub = makeHub();
    const target = recorder();
    const remove = hub.addTarget(target);
    expect(hub.stats.targets).toBe(1);
    remove();
    remove();
    expect(hub.stats.targets).toBe(0);
    hub.resourceUpdated('note://a');
    hub.listChanged('tools');
    await sleep(50);
    expect(target.updates).toEqual([]);
    expect(target.lists).toEqual([]);
  });
});

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
