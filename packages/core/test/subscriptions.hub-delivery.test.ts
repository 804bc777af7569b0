/**
 * SubscriptionHub delivery: which targets get which notifications, bursts coalesced into one, and a
 * failing target that stops no other.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeHubs, makeHub, memoryLog, recorder, sleep } from './subscriptions-hub-kit.js';

afterEach(closeHubs);

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
