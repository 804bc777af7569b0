import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/logging/logger.js';
import { SubscriptionHub } from '../src/subscriptions/hub.js';
import type { PollProviderOptions } from '../src/subscriptions/index.js';
import { pollProvider } from '../src/subscriptions/poll.js';

const hubs: SubscriptionHub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.close();
});

function setup(options: Omit<PollProviderOptions, 'match'>) {
  const hub = new SubscriptionHub({ debounceMs: 10 });
  hubs.push(hub);
  hub.addWatchProvider(pollProvider({ match: (uri) => uri.startsWith('db:'), ...options }));
  const updates: string[] = [];
  hub.addTarget({
    resourceUpdated: (uri) => {
      updates.push(uri);
    },
    listChanged() {},
  });
  return { hub, updates };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pollProvider', () => {
  it('reports a change when the version tag differs, and nothing while it stays the same', async () => {
    const versions = new Map([['db:main', '1']]);
    const { hub, updates } = setup({ intervalMs: 10, version: async (uri) => versions.get(uri) });
    await hub.acquire({}, 'db:main');
    await sleep(60);
    expect(updates).toEqual([]);

    versions.set('db:main', '2');
    await vi.waitFor(() => expect(updates).toEqual(['db:main']));
    await sleep(60);
    expect(updates).toEqual(['db:main']);

    // "gone" (undefined) is a version too.
    versions.delete('db:main');
    await vi.waitFor(() => expect(updates).toEqual(['db:main', 'db:main']));
  });

  it('never runs two polls of one URI at once, even when a poll outlasts the interval', async () => {
    let running = 0;
    let maxRunning = 0;
    let polls = 0;
    const { hub } = setup({
      intervalMs: 5,
      version: async () => {
        running++;
        polls++;
        maxRunning = Math.max(maxRunning, running);
        await sleep(40);
        running--;
        return 'same';
      },
    });
    await hub.acquire({}, 'db:slow');
    await vi.waitFor(() => expect(polls).toBeGreaterThanOrEqual(4), { timeout: 1_500 });
    expect(maxRunning).toBe(1);
  });

  it('logs a failing poll, keeps polling, and still sees the next change', async () => {
    const lines: string[] = [];
    const log: Logger = {
      level: 'debug',
      debug: (m) => lines.push(`debug: ${m}`),
      info: (m) => lines.push(`info: ${m}`),
      warn: (m) => lines.push(`warn: ${m}`),
      error: (m) => lines.push(`error: ${m}`),
    };
    let step = 0;
    const { hub, updates } = setup({
      intervalMs: 10,
      log,
      version: async () => {
        step++;
        if (step === 1) return 'a';
        if (step <= 4) throw new Error('database is locked');
        return 'b';
      },
    });
    await hub.acquire({}, 'db:flaky');
    await vi.waitFor(() => expect(updates).toEqual(['db:flaky']));
    expect(lines.filter((line) => line.includes('database is locked'))).toEqual([
      'warn: subscriptions: polling db:flaky failed: database is locked',
      'debug: subscriptions: polling db:flaky failed: database is locked',
      'debug: subscriptions: polling db:flaky failed: database is locked',
    ]);
  });

  it('stops polling and aborts the poll in flight once released', async () => {
    let polls = 0;
    const signals: AbortSignal[] = [];
    const { hub } = setup({
      intervalMs: 5,
      version: async (_uri, signal) => {
        polls++;
        signals.push(signal);
        await sleep(20);
        return String(polls);
      },
    });
    const owner = {};
    await hub.acquire(owner, 'db:main');
    await vi.waitFor(() => expect(polls).toBeGreaterThanOrEqual(2));
    await hub.release(owner, 'db:main');
    expect(hub.stats.watches).toBe(0);
    expect(signals.at(-1)?.aborted).toBe(true);
    const seen = polls;
    await sleep(80);
    expect(polls).toBe(seen);
  });

  it('ignores URIs it does not match, and rejects a bad interval', () => {
    const provider = pollProvider({
      match: (uri) => uri.startsWith('db:'),
      intervalMs: 10,
      version: async () => 'x',
    });
    expect(provider('file:///a')).toBeUndefined();
    expect(provider('db:x')).toBeTypeOf('function');
    expect(() => pollProvider({ match: () => true, intervalMs: 0, version: async () => 'x' })).toThrow(
      RangeError,
    );
  });
});
