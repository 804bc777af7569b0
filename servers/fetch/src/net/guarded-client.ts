/**
 * The only way the fetch server talks to the network. Every request goes through the guarded
 * agent (the address policy at connect time), follows redirects by hand with the whole check on
 * every hop, and runs under the limits of limits.ts: a first-byte timer per hop, a total deadline
 * that covers the body, a byte cap on the decompressed body and a cap on stacked content codings.
 * No proxy is used, whatever the environment says. Everything it refuses is a `UserError`.
 */
import { UserError } from '@mcpkit/core/errors';
import type { Agent, Headers, Response } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { type FetchProgress, limitedChunks, type ReadState } from './body-reader.js';
import { CallDeadline } from './call-deadline.js';
import { fetchFailure } from './fetch-errors.js';
import { createGuardedAgent } from './guarded-agent.js';
import { type FetchLimits, resolveLimits } from './limits.js';
import { customHeaders, isRedirect, nextHop } from './redirects.js';
import { type Resolver, systemResolver } from './resolver.js';
import { fetch as undiciFetch } from './undici-parts.js';
import { checkUrl } from './url-check.js';

/** The User-Agent sent when the operator configures none. */
export const DEFAULT_USER_AGENT = 'ModelContextProtocol/1.0 (Autonomous; mcpkit-fetch)';

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8';

/** How a client is built; only `policy` is required. */
export interface GuardedClientOptions {
  policy: AddressPolicy;
  /** Name resolution; the system resolver by default, a stub in tests. */
  resolver?: Resolver;
  userAgent?: string;
  /** Defaults for every call. `connectTimeoutMs` is fixed per client (it lives in the agent). */
  limits?: Partial<FetchLimits>;
  /** Extra certificate authorities to trust. */
  ca?: string | readonly string[];
}

/** Options of one call. */
export interface RequestOptions {
  /** Cancels the call, including a download in progress. */
  signal?: AbortSignal;
  /** Extra request headers, sent only while the redirect chain stays on the first origin. */
  headers?: Readonly<Record<string, string>>;
  /** The Accept header; HTML first by default. */
  accept?: string;
  /** Validators of a cached copy: the server may answer 304 Not Modified. Same origin only. */
  conditional?: { etag?: string; lastModified?: string };
  /**
   * Limits for this call. They may be tighter than the client's; undici's own backstops (header
   * and idle-body timeouts, the connect timeout) keep the client's values.
   */
  limits?: Partial<FetchLimits>;
  /**
   * Refuse a redirect to any origin but the first URL's, before requesting it: for a caller that
   * may only read one site (the research loop), so the other site never sees the request.
   */
  sameOrigin?: boolean;
  /** At the byte cap, keep what fits (and set `truncated`) instead of refusing. */
  truncate?: boolean;
  onProgress?: (progress: FetchProgress) => void;
}

/** The final response of a call, headers read and body not yet. */
export interface OpenResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  /** The URLs that redirected, in order. */
  redirects: readonly string[];
  status: number;
  statusText: string;
  headers: Headers;
  /** The Content-Type header, or '' when there is none. */
  contentType: string;
  /** The body under the limits; can be iterated once. */
  chunks(): AsyncGenerator<Uint8Array>;
  /** Bytes read so far and whether the cap cut the body. */
  readonly state: Readonly<ReadState>;
  /** Drops the rest of the body and ends the call; safe to call more than once. */
  close(): Promise<void>;
}

/** A finished call with its whole body. */
export interface FetchResult {
  url: string;
  redirects: readonly string[];
  status: number;
  statusText: string;
  headers: Headers;
  contentType: string;
  etag?: string;
  lastModified?: string;
  body: Uint8Array;
  /** True when `truncate` was asked for and the body was cut at the cap. */
  truncated: boolean;
}

/** The guarded HTTP client; {@link GuardedClient.close} it when the server stops. */
export interface GuardedClient {
  readonly userAgent: string;
  /** The limits every call starts from: the defaults with the client's own options applied. */
  readonly limits: Readonly<FetchLimits>;
  /** Makes the request and follows redirects; the body is read from the result. */
  open(url: string | URL, options?: RequestOptions): Promise<OpenResponse>;
  /** Makes the request and reads the whole body. */
  fetch(url: string | URL, options?: RequestOptions): Promise<FetchResult>;
  close(): Promise<void>;
}

function contentCodings(headers: Headers): string[] {
  const value = headers.get('content-encoding') ?? '';
  return value
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function declaredLength(headers: Headers, coded: boolean): number | undefined {
  const value = headers.get('content-length');
  return !coded && value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * Builds the guarded client.
 *
 * @example
 * ```ts
 * const client = createGuardedClient({ policy: createAddressPolicy() });
 * const page = await client.fetch('https://example.com/', { limits: { maxBytes: 2_000_000 } });
 * ```
 */
export function createGuardedClient(options: GuardedClientOptions): GuardedClient {
  const base = resolveLimits(options.limits);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const agent: Agent = createGuardedAgent({
    policy: options.policy,
    resolver: options.resolver ?? systemResolver,
    connectTimeoutMs: base.connectTimeoutMs,
    headersTimeoutMs: base.firstByteTimeoutMs,
    bodyTimeoutMs: base.totalTimeoutMs,
    ...(options.ca ? { ca: options.ca } : {}),
  });

  async function hop(
    url: URL,
    headers: Record<string, string>,
    deadline: CallDeadline,
    limits: FetchLimits,
  ): Promise<Response> {
    const disarm = deadline.arm(
      limits.firstByteTimeoutMs,
      () =>
        new UserError(
          `${url.host} sent no response within ${limits.firstByteTimeoutMs} ms; try again later.`,
        ),
    );
    try {
      return await undiciFetch(url, {
        dispatcher: agent,
        redirect: 'manual',
        signal: deadline.signal,
        headers,
      });
    } finally {
      disarm();
    }
  }

  function headersFor(call: RequestOptions, custom: Record<string, string>, sameOrigin: boolean) {
    const headers: Record<string, string> = {
      'user-agent': userAgent,
      accept: call.accept ?? DEFAULT_ACCEPT,
    };
    if (!sameOrigin) return headers;
    Object.assign(headers, custom);
    if (call.conditional?.etag) headers['if-none-match'] = call.conditional.etag;
    if (call.conditional?.lastModified) headers['if-modified-since'] = call.conditional.lastModified;
    return headers;
  }

  function wrap(
    response: Response,
    url: URL,
    redirects: string[],
    deadline: CallDeadline,
    limits: FetchLimits,
    call: RequestOptions,
  ): OpenResponse {
    const state: ReadState = { received: 0, truncated: false };
    const total = declaredLength(response.headers, contentCodings(response.headers).length > 0);
    let started = false;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (started) throw new Error('The body of a response can be read once.');
      started = true;
      try {
        if (!response.body) return;
        const read = { maxBytes: limits.maxBytes, url, truncate: call.truncate ?? false };
        yield* limitedChunks(response.body, { ...read, onProgress: call.onProgress, total }, state);
      } catch (error) {
        throw deadline.reason ?? fetchFailure(error, url, limits);
      } finally {
        deadline.dispose();
      }
    }
    return {
      url,
      redirects,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      contentType: response.headers.get('content-type') ?? '',
      chunks,
      state,
      async close() {
        if (!started) {
          started = true;
          await response.body?.cancel().catch(() => undefined);
        }
        deadline.dispose();
      },
    };
  }

  async function open(input: string | URL, call: RequestOptions = {}): Promise<OpenResponse> {
    const limits = resolveLimits(base, call.limits);
    const custom = customHeaders(call.headers);
    const first = checkUrl(input, options.policy);
    const deadline = new CallDeadline(call.signal, limits.totalTimeoutMs, first);
    let url = first;
    try {
      const redirects: string[] = [];
      let sameOrigin = true;
      for (;;) {
        sameOrigin &&= url.origin === first.origin;
        const response = await hop(url, headersFor(call, custom, sameOrigin), deadline, limits);
        const location = response.headers.get('location');
        if (isRedirect(response.status) && location !== null) {
          await response.body?.cancel().catch(() => undefined);
          const stayOn = call.sameOrigin ? first.origin : undefined;
          const next = nextHop(url, location, redirects.length, limits.maxRedirects, options.policy, stayOn);
          redirects.push(url.href);
          url = next;
          continue;
        }
        const codings = contentCodings(response.headers);
        if (codings.length > limits.maxContentCodings) {
          await response.body?.cancel().catch(() => undefined);
          throw new UserError(
            `${url.host} stacked ${codings.length} content codings (${codings.join(', ')}); at most ${limits.maxContentCodings} are decoded.`,
          );
        }
        return wrap(response, url, redirects, deadline, limits, call);
      }
    } catch (error) {
      deadline.dispose();
      throw deadline.reason ?? fetchFailure(error, url, limits);
    }
  }

  return {
    userAgent,
    limits: Object.freeze({ ...base }),
    open,
    async fetch(input, call = {}) {
      const response = await open(input, call);
      const parts: Uint8Array[] = [];
      try {
        for await (const chunk of response.chunks()) parts.push(chunk);
      } finally {
        await response.close();
      }
      const body = Buffer.concat(parts);
      const etag = response.headers.get('etag');
      const lastModified = response.headers.get('last-modified');
      return {
        url: response.url.href,
        redirects: response.redirects,
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        contentType: response.contentType,
        ...(etag ? { etag } : {}),
        ...(lastModified ? { lastModified } : {}),
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        truncated: response.state.truncated,
      };
    },
    close: () => agent.close(),
  };
}
