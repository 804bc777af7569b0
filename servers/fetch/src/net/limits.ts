/**
 * The resource limits of one fetch, with their defaults in one place. Every limit exists because
 * a hostile server can otherwise hold the call forever or fill the memory: a server that never
 * answers, one that sends a byte a second, a 10 GB body or a gzip bomb.
 */

/** Limits of one fetch call; every field has a default in {@link DEFAULT_LIMITS}. */
export interface FetchLimits {
  /** Resolving the name and opening the connection (TCP and TLS), per connection. */
  connectTimeoutMs: number;
  /** From sending a request to receiving its response headers, per hop (connecting included). */
  firstByteTimeoutMs: number;
  /** The whole call: every redirect hop and reading the whole body. */
  totalTimeoutMs: number;
  /** Bytes of the body after decompression. */
  maxBytes: number;
  /** Redirects followed before the call is refused. */
  maxRedirects: number;
  /** Content codings (`gzip, br`) one response may stack. */
  maxContentCodings: number;
}

/** The defaults: generous for real pages, small enough that an attack ends quickly. */
export const DEFAULT_LIMITS: Readonly<FetchLimits> = Object.freeze({
  connectTimeoutMs: 5_000,
  firstByteTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxContentCodings: 2,
});

/**
 * The largest total deadline an operator may set (`--total-timeout`), in seconds: an hour. A
 * download that has not finished in an hour is stuck, not slow, and meanwhile it holds a
 * connection, a tool call and up to the byte cap of memory; clients give up on a call long before.
 * It also keeps the timer far below what `setTimeout` can hold (about 24.8 days), past which a
 * timer fires at once and every fetch would fail.
 */
export const MAX_TOTAL_TIMEOUT_S = 3_600;

/** The defaults with `overrides` applied, ignoring fields that are `undefined`. */
export function resolveLimits(...overrides: ReadonlyArray<Partial<FetchLimits> | undefined>): FetchLimits {
  const limits: FetchLimits = { ...DEFAULT_LIMITS };
  for (const override of overrides) {
    if (!override) continue;
    for (const key of Object.keys(limits) as Array<keyof FetchLimits>) {
      const value = override[key];
      if (value !== undefined) limits[key] = value;
    }
  }
  return limits;
}
