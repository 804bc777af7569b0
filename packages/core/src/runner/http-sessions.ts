/**
 * The legacy (2025-era) session table. The SDK neither caps nor reaps sessions, and a 2025 client's
 * `close()` sends no DELETE (SDK 2.4), so this table does both: past
 * `maxSessions` the least recently used session is closed to make room (new clients are never
 * locked out), and a session with no open exchange for `idleMs` is closed by a timer. Each session
 * remembers its principal; another principal presenting its id is told it does not exist
 * (CVE-2026-33946).
 */
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';

export interface LegacySession {
  readonly id: string;
  /** One transport and one server instance per session (CVE-2026-25536). */
  readonly transport: NodeStreamableHTTPServerTransport;
  /** Who opened it: the verifier's principal id, or `undefined` when auth is off. */
  readonly principal: string | undefined;
  /** Last time an exchange started or ended, in ms. */
  lastSeen: number;
  /** HTTP exchanges in flight, including an open GET stream; a busy session is never idle. */
  active: number;
}

export interface SessionStoreOptions {
  maxSessions: number;
  idleMs: number;
  log: Logger;
  /** Clock, replaceable in tests. */
  now?: () => number;
}

export class LegacySessionStore {
  readonly #sessions = new Map<string, LegacySession>();
  readonly #maxSessions: number;
  readonly #idleMs: number;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #timer: NodeJS.Timeout;

  constructor(options: SessionStoreOptions) {
    this.#maxSessions = Math.max(1, options.maxSessions);
    this.#idleMs = options.idleMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    const every = Math.min(Math.max(Math.floor(this.#idleMs / 2), 10), 60_000);
    // unref: an idle reaper must not keep the process alive on its own.
    this.#timer = setInterval(() => this.reap(), every).unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * The session `id` names, if it exists and belongs to `principal`. A hit marks it most recently
   * used. A miss and a foreign session look the same to the caller, so ids cannot be probed.
   */
  lookup(id: string, principal: string | undefined): LegacySession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined || session.principal !== principal) return undefined;
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    return session;
  }

  /** Registers a new session, closing the least recently used ones past the cap. */
  add(session: LegacySession): void {
    while (this.#sessions.size >= this.#maxSessions) {
      const oldest = this.#sessions.values().next().value;
      if (oldest === undefined) break;
      this.#close(oldest, 'evicted (session cap reached)');
    }
    this.#sessions.set(session.id, session);
  }

  /** Forgets a session the SDK is already closing (after DELETE or its own close). */
  forget(id: string): void {
    this.#sessions.delete(id);
  }

  /** Marks the start of an exchange; pair with {@link LegacySessionStore.end}. */
  begin(session: LegacySession): void {
    session.active++;
    session.lastSeen = this.#now();
  }

  end(session: LegacySession): void {
    session.active = Math.max(0, session.active - 1);
    session.lastSeen = this.#now();
  }

  /** Closes every session idle for longer than `idleMs`. Called by the timer; public for tests. */
  reap(): void {
    const cutoff = this.#now() - this.#idleMs;
    for (const session of [...this.#sessions.values()]) {
      if (session.active === 0 && session.lastSeen < cutoff) this.#close(session, 'reaped (idle)');
    }
  }

  /** Stops the reaper and closes every session. */
  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
  }

  #close(session: LegacySession, why: string): void {
    this.#sessions.delete(session.id);
    this.#log.debug(`legacy session ${why}`);
    session.transport.close().catch((error: unknown) => {
      this.#log.warn(`closing a legacy session failed: ${errorMessage(error)}`);
    });
  }
}
