import { errorMessage, UserError } from '../errors/index.js';
import { type Logger, silentLogger } from '../logging/logger.js';
import { sanitizeForMessage } from '../roots/sanitize.js';
import { KeyedDebouncer } from './debounce.js';
import type { ListKind, NotificationTarget, WatchFactory, WatchProvider, WatchSource } from './types.js';

export interface SubscriptionHubOptions {
  /** Quiet period that folds a burst of changes to one URI (or one list) into one notification; default 100. */
  debounceMs?: number;
  /** Most distinct URIs acquired at once, over all owners; default 256. */
  maxWatches?: number;
  log?: Logger;
}

export interface AddTargetOptions {
  /**
   * The session (any object) on whose subscriptions this target depends. With it the target gets
   * `resourceUpdated(uri)` only for URIs the owner has acquired; without it, every update.
   */
  owner?: object;
}

export interface SubscriptionStats {
  /** Distinct URIs acquired (each has at most one running watch). */
  watches: number;
  /** Owners holding at least one URI. */
  owners: number;
  targets: number;
}

interface WatchEntry {
  readonly uri: string;
  readonly owners: Set<object>;
  /** False once the last owner left or the hub closed; late events are then dropped. */
  active: boolean;
  source: WatchSource | undefined;
  /** True once the watch runs (or none is needed), false if it could not start. Never rejects. */
  ready: Promise<boolean>;
}

interface TargetEntry {
  readonly target: NotificationTarget;
  readonly owner: object | undefined;
}

const DEFAULT_DEBOUNCE_MS = 100;
const DEFAULT_MAX_WATCHES = 256;

/**
 * The one place a server says "resource X changed" or "list Y changed", whatever the protocol era
 * or transport. It keeps who subscribed to what, runs one watch per subscribed URI (started by the
 * first subscriber, stopped by the last), coalesces bursts, and fans notifications out to every
 * registered delivery target.
 *
 * @example
 * ```ts
 * const hub = new SubscriptionHub({ log });
 * const session = {}; // stands for one client
 * const target: NotificationTarget = { resourceUpdated: (uri) => log.info(uri), listChanged() {} };
 * const remove = hub.addTarget(target, { owner: session });
 * await hub.acquire(session, 'file:///srv/notes/a.md'); // on resources/subscribe
 * hub.resourceUpdated('file:///srv/notes/a.md'); // reaches the target once the debounce has passed
 * await hub.releaseOwner(session); // on close
 * remove();
 * ```
 */
export class SubscriptionHub {
  readonly #log: Logger;
  readonly #maxWatches: number;
  readonly #providers: WatchProvider[] = [];
  readonly #targets = new Set<TargetEntry>();
  readonly #entries = new Map<string, WatchEntry>();
  /** owner → URIs it holds; the filter for owned targets and the list `releaseOwner` walks. */
  readonly #held = new Map<object, Set<string>>();
  readonly #updates: KeyedDebouncer<string>;
  readonly #lists: KeyedDebouncer<ListKind>;
  #closing: Promise<void> | undefined;

  constructor(options: SubscriptionHubOptions = {}) {
    const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    const maxWatches = options.maxWatches ?? DEFAULT_MAX_WATCHES;
    if (!Number.isFinite(debounceMs) || debounceMs < 0) {
      throw new RangeError(`debounceMs must be a non-negative number, got ${debounceMs}`);
    }
    if (!Number.isInteger(maxWatches) || maxWatches < 1) {
      throw new RangeError(`maxWatches must be a positive integer, got ${maxWatches}`);
    }
    this.#log = options.log ?? silentLogger;
    this.#maxWatches = maxWatches;
    this.#updates = new KeyedDebouncer({ waitMs: debounceMs, fire: (uri) => this.#deliverUpdate(uri) });
    this.#lists = new KeyedDebouncer({ waitMs: debounceMs, fire: (kind) => this.#deliverListChanged(kind) });
  }

  get stats(): SubscriptionStats {
    return { watches: this.#entries.size, owners: this.#held.size, targets: this.#targets.size };
  }

  /** Registers a provider; for each URI the first provider (in registration order) returning a factory wins. */
  addWatchProvider(provider: WatchProvider): void {
    this.#providers.push(provider);
  }

  /**
   * Adds a delivery target. With `owner`, `resourceUpdated(uri)` reaches it only while `owner` has
   * acquired `uri` (2025-era `resources/subscribe`). Without one it receives every update and
   * filters itself (the SDK's 2026 listen router does). `listChanged` always reaches every target.
   * Returns a remover; calling it twice is harmless.
   */
  addTarget(target: NotificationTarget, options: AddTargetOptions = {}): () => void {
    const entry: TargetEntry = { target, owner: options.owner };
    this.#targets.add(entry);
    return () => {
      this.#targets.delete(entry);
    };
  }

  /**
   * Records that `owner` wants updates for `uri` and starts the URI's watch on its first owner.
   * Idempotent per (owner, uri). Resolves once the watch runs, so a change made after it resolves
   * is seen. A URI that no provider handles is still acquirable; its updates then come only from
   * explicit {@link resourceUpdated} calls.
   *
   * @throws UserError when the cap is reached or the watch cannot be started.
   */
  async acquire(owner: object, uri: string): Promise<void> {
    if (this.#closing) {
      throw new UserError('The server is shutting down; subscriptions are no longer accepted.');
    }
    let entry = this.#entries.get(uri);
    if (entry) {
      entry.owners.add(owner);
      this.#hold(owner, uri);
    } else {
      if (this.#entries.size >= this.#maxWatches) {
        throw new UserError(
          `Too many resources are being watched (${this.#maxWatches}); unsubscribe from some first.`,
        );
      }
      const factory = this.#findFactory(uri);
      entry = {
        uri,
        owners: new Set([owner]),
        active: true,
        source: undefined,
        ready: Promise.resolve(true),
      };
      // Registered before the factory runs, so a concurrent acquire joins this watch instead of
      // starting a second one, and a concurrent release can find and cancel it.
      this.#entries.set(uri, entry);
      this.#hold(owner, uri);
      entry.ready = this.#start(entry, factory);
    }
    if (!(await entry.ready)) throw cannotWatch(uri);
  }

  /** Drops `owner`'s interest in `uri`; the watch stops when its last owner leaves. Unknown pairs are ignored. */
  async release(owner: object, uri: string): Promise<void> {
    const uris = this.#held.get(owner);
    if (uris?.delete(uri) && uris.size === 0) this.#held.delete(owner);
    const entry = this.#entries.get(uri);
    if (!entry?.owners.delete(owner) || entry.owners.size > 0) return;
    this.#entries.delete(uri);
    await this.#stop(entry);
  }

  /** The owner's session ended: releases every URI it held. Its targets are removed by their removers. */
  async releaseOwner(owner: object): Promise<void> {
    const uris = [...(this.#held.get(owner) ?? [])];
    await Promise.all(uris.map((uri) => this.release(owner, uri)));
  }

  /** Reports that `uri` changed. Calls within `debounceMs` of each other are delivered once. */
  resourceUpdated(uri: string): void {
    if (this.#closing) return;
    this.#updates.schedule(uri);
  }

  /** Reports that a list changed; coalesced per kind like {@link resourceUpdated}. */
  listChanged(kind: ListKind): void {
    if (this.#closing) return;
    this.#lists.schedule(kind);
  }

  /** Closes every watch and drops pending notifications, targets and owners. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#updates.clear();
    this.#lists.clear();
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    this.#held.clear();
    this.#targets.clear();
    await Promise.all(entries.map((entry) => this.#stop(entry)));
  }

  #hold(owner: object, uri: string): void {
    let uris = this.#held.get(owner);
    if (!uris) {
      uris = new Set();
      this.#held.set(owner, uris);
    }
    uris.add(uri);
  }

  #findFactory(uri: string): WatchFactory | undefined {
    for (const provider of this.#providers) {
      let factory: WatchFactory | undefined;
      try {
        factory = provider(uri);
      } catch (error) {
        this.#log.warn(`subscriptions: watch provider failed for ${uri}: ${errorMessage(error)}`);
        throw cannotWatch(uri);
      }
      if (factory) return factory;
    }
    return undefined;
  }

  async #start(entry: WatchEntry, factory: WatchFactory | undefined): Promise<boolean> {
    if (!factory) return true;
    const changed = (): void => {
      // A watcher may still fire between release and its close; nobody asked for that event.
      if (entry.active) this.resourceUpdated(entry.uri);
    };
    try {
      entry.source = await factory(entry.uri, changed);
      return true;
    } catch (error) {
      this.#log.warn(`subscriptions: cannot watch ${entry.uri}: ${errorMessage(error)}`);
      this.#forget(entry);
      return false;
    }
  }

  /** Undoes the bookkeeping of a watch that failed to start, for every owner that joined it meanwhile. */
  #forget(entry: WatchEntry): void {
    entry.active = false;
    if (this.#entries.get(entry.uri) === entry) this.#entries.delete(entry.uri);
    for (const owner of entry.owners) {
      const uris = this.#held.get(owner);
      if (uris?.delete(entry.uri) && uris.size === 0) this.#held.delete(owner);
    }
    entry.owners.clear();
  }

  /**
   * Closes the entry's source. Waiting on `ready` first covers a watch still starting: it is closed
   * as soon as its factory returns it, instead of leaking.
   */
  async #stop(entry: WatchEntry): Promise<void> {
    entry.active = false;
    await entry.ready;
    const source = entry.source;
    entry.source = undefined;
    if (!source) return;
    try {
      await source.close();
    } catch (error) {
      this.#log.warn(`subscriptions: closing the watch of ${entry.uri} failed: ${errorMessage(error)}`);
    }
  }

  #deliverUpdate(uri: string): void {
    for (const { target, owner } of [...this.#targets]) {
      if (owner && !this.#held.get(owner)?.has(uri)) continue;
      this.#deliver(`resources/updated ${uri}`, () => target.resourceUpdated(uri));
    }
  }

  #deliverListChanged(kind: ListKind): void {
    for (const { target } of [...this.#targets]) {
      this.#deliver(`${kind}/list_changed`, () => target.listChanged(kind));
    }
  }

  /** One target failing (a closed connection, usually) must not keep the others from hearing. */
  #deliver(what: string, send: () => void | Promise<void>): void {
    const failed = (error: unknown): void => {
      this.#log.debug(`subscriptions: delivering ${what} failed: ${errorMessage(error)}`);
    };
    try {
      // Promise.resolve also absorbs targets that answer synchronously.
      Promise.resolve(send()).catch(failed);
    } catch (error) {
      failed(error);
    }
  }
}

/** The refusal of a subscription; the URI is the client's, so it is quoted cut and escaped. */
function cannotWatch(uri: string): UserError {
  return new UserError(
    `The resource "${sanitizeForMessage(uri)}" cannot be watched for changes; read it again later instead.`,
  );
}
