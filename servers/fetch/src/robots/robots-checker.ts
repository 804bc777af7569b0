/**
 * Whether robots.txt lets an autonomous agent fetch a URL. robots.txt is fetched through the same
 * guarded client as pages (so it cannot be used to reach a blocked address), under its own short
 * timeout (capped by the client's total deadline) and a 500 KiB cap, and the outcome is cached
 * per origin. What each answer means:
 * - 2xx: the rules decide (for this User-Agent's product token, else `*`);
 * - 401 and 403: disallowed, as the official server does (the site refuses anonymous access);
 * - any other 4xx (404, 410…): allowed, there are no rules;
 * - 429, 5xx, a timeout, a network failure or a file too costly to evaluate: "unreachable", and
 *   by default disallowed, as RFC 9309 §2.3.1.4 asks (the official server allows 5xx). Cached
 *   only briefly, so a site that recovers is fetchable again within minutes.
 * A host the address policy refuses (a name that resolves to a blocked address) is none of these:
 * the page on that host is refused for the same reason, so the policy's own sentence is passed on
 * instead of a robots.txt "try again later" that could never come true. It is not cached: the
 * next call resolves the name again.
 */
import { UserError } from '@mcpkit/core/errors';
import { CancelledError } from '@mcpkit/core/progress';
import { LruCache } from '../cache/lru.js';
import { type AddressPolicy, AddressRefused, normalizeHostname } from '../net/address-policy.js';
import type { GuardedClient } from '../net/guarded-client.js';
import { checkUrl } from '../net/url-check.js';
import { isAllowedBy, parseRobots, type RobotsRules } from './robots-rules.js';

/** How robots.txt is read and what an unreachable one means. */
export interface RobotsOptions {
  client: GuardedClient;
  /** The client's policy: a robots.txt URL it refuses is reported as that refusal. */
  policy: AddressPolicy;
  /** Defaults to the client's User-Agent; its product token selects the rules. */
  userAgent?: string;
  /** Whole-fetch deadline for robots.txt (connect, first byte, body). */
  timeoutMs?: number;
  maxBytes?: number;
  /** What an unreachable robots.txt means; `disallow` by default (RFC 9309). */
  onUnreachable?: 'disallow' | 'allow';
  ttlMs?: number;
  unreachableTtlMs?: number;
  maxOrigins?: number;
  now?: () => number;
}

/** The decision for one URL and why. */
export interface RobotsVerdict {
  allowed: boolean;
  robotsUrl: string;
  /** One sentence; for a refusal it is the message {@link RobotsChecker.assertAllowed} throws. */
  reason: string;
}

type Outcome =
  | { kind: 'rules'; rules: RobotsRules }
  | { kind: 'none'; status: number }
  | { kind: 'forbidden'; status: number }
  | { kind: 'unreachable'; why: string };

interface Entry {
  outcome: Outcome;
  expires: number;
}

/** Checks URLs against their origin's robots.txt; one instance per server. */
export class RobotsChecker {
  readonly #options: Required<Omit<RobotsOptions, 'userAgent'>> & { userAgent: string };
  readonly #cache: LruCache<string, Entry>;
  readonly #inFlight = new Map<string, Promise<Entry>>();

  constructor(options: RobotsOptions) {
    this.#options = {
      userAgent: options.userAgent ?? options.client.userAgent,
      timeoutMs: 3_000,
      maxBytes: 500 * 1024,
      onUnreachable: 'disallow',
      ttlMs: 24 * 3_600_000,
      unreachableTtlMs: 5 * 60_000,
      maxOrigins: 512,
      now: Date.now,
      ...options,
    };
    this.#cache = new LruCache({ maxEntries: this.#options.maxOrigins, maxWeight: Number.MAX_SAFE_INTEGER });
  }

  /**
   * The verdict for `url`; rejects only for a cancellation or a host the address policy refuses
   * (its {@link AddressRefused}, which applies to the page as well).
   */
  async check(url: string, signal?: AbortSignal): Promise<RobotsVerdict> {
    const target = checkUrl(url, this.#options.policy);
    const robotsUrl = new URL('/robots.txt', target.origin).href;
    const entry = await this.#entry(target.origin, robotsUrl, signal);
    return this.#verdict(entry.outcome, target, robotsUrl);
  }

  /** Throws a {@link UserError} when robots.txt does not allow fetching `url`. */
  async assertAllowed(url: string, signal?: AbortSignal): Promise<void> {
    const verdict = await this.check(url, signal);
    if (!verdict.allowed) throw new UserError(verdict.reason);
  }

  async #entry(origin: string, robotsUrl: string, signal: AbortSignal | undefined): Promise<Entry> {
    const cached = this.#cache.get(origin);
    if (cached && cached.expires > this.#options.now()) return cached;
    const running = this.#inFlight.get(origin);
    if (running) return running;
    const loading = this.#load(robotsUrl, signal).then((outcome) => {
      const ttl = outcome.kind === 'unreachable' ? this.#options.unreachableTtlMs : this.#options.ttlMs;
      const entry = { outcome, expires: this.#options.now() + ttl };
      this.#cache.set(origin, entry);
      return entry;
    });
    this.#inFlight.set(origin, loading);
    try {
      return await loading;
    } finally {
      this.#inFlight.delete(origin);
    }
  }

  async #load(robotsUrl: string, signal: AbortSignal | undefined): Promise<Outcome> {
    checkUrl(robotsUrl, this.#options.policy);
    const { maxBytes, client } = this.#options;
    // Its own short deadline, and never longer than any download's (`--total-timeout`).
    const timeoutMs = Math.min(this.#options.timeoutMs, client.limits.totalTimeoutMs);
    try {
      const result = await client.fetch(robotsUrl, {
        accept: 'text/plain,*/*;q=0.5',
        truncate: true,
        limits: { firstByteTimeoutMs: timeoutMs, totalTimeoutMs: timeoutMs, maxBytes, maxRedirects: 5 },
        ...(signal ? { signal } : {}),
      });
      const status = result.status;
      if (status >= 200 && status < 300)
        return { kind: 'rules', rules: parseRobots(robotsUrl, new TextDecoder().decode(result.body)) };
      if (status === 401 || status === 403) return { kind: 'forbidden', status };
      if (status >= 400 && status < 500 && status !== 429) return { kind: 'none', status };
      return { kind: 'unreachable', why: `status ${status}` };
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      // Refused where robots.txt's own host was dialled, not on a redirect elsewhere: that host
      // is the page's, so the refusal is the answer for the page too.
      if (error instanceof AddressRefused && error.host === normalizeHostname(new URL(robotsUrl).hostname))
        throw error;
      const why =
        error instanceof UserError
          ? (error.message.split(';')[0] ?? '').replace(/\.$/, '')
          : 'the fetch failed';
      return { kind: 'unreachable', why };
    }
  }

  #verdict(outcome: Outcome, target: URL, robotsUrl: string): RobotsVerdict {
    const origin = target.origin;
    const manual = 'tell the user, who can fetch the page manually';
    const unreachable = (why: string): RobotsVerdict => {
      const allowed = this.#options.onUnreachable === 'allow';
      const reason = allowed
        ? `${robotsUrl} could not be read (${why}); fetching is allowed by configuration.`
        : `${robotsUrl} could not be read (${why}), so autonomous fetching from ${origin} is not allowed for now; try again later, or ${manual}.`;
      return { allowed, robotsUrl, reason };
    };
    switch (outcome.kind) {
      case 'none':
        return {
          allowed: true,
          robotsUrl,
          reason: `${robotsUrl} answered ${outcome.status}: there are no rules.`,
        };
      case 'forbidden':
        return {
          allowed: false,
          robotsUrl,
          reason: `${robotsUrl} answered ${outcome.status}, so autonomous fetching from ${origin} is taken as not allowed; ${manual}.`,
        };
      case 'unreachable':
        return unreachable(outcome.why);
      case 'rules': {
        const allowed = isAllowedBy(outcome.rules, target.href, this.#options.userAgent);
        if (allowed === undefined) return unreachable('too costly to evaluate for this URL');
        return allowed
          ? { allowed, robotsUrl, reason: `${robotsUrl} allows this URL.` }
          : {
              allowed,
              robotsUrl,
              reason: `The robots.txt of ${origin} does not allow autonomous fetching of ${target.href}; ${manual}.`,
            };
      }
    }
  }
}
