/**
 * What the SubscriptionHub tests (subscriptions.hub-*.test.ts) share: targets and a log that record
 * what reached them, watches the test triggers by hand, and hubs closed after each test.
 */
import type { Logger } from '../src/logging/logger.js';
import type { SubscriptionHubOptions } from '../src/subscriptions/hub.js';
import { SubscriptionHub } from '../src/subscriptions/hub.js';
import type { ListKind, NotificationTarget, WatchFactory } from '../src/subscriptions/index.js';

/** A target that records what reached it. */
export function recorder(): NotificationTarget & { updates: string[]; lists: ListKind[] } {
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

export function memoryLog(): Logger & { lines: string[] } {
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
export function fakeWatches() {
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

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hubs: SubscriptionHub[] = [];
/** A hub with a 20 ms debounce unless told otherwise, closed by `closeHubs`. */
export function makeHub(options: SubscriptionHubOptions = {}): SubscriptionHub {
  const hub = new SubscriptionHub({ debounceMs: 20, ...options });
  hubs.push(hub);
  return hub;
}

/** Closes every hub a test made (after each test). */
export async function closeHubs(): Promise<void> {
  for (const hub of hubs.splice(0)) await hub.close();
}
