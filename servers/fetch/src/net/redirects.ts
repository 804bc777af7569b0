/**
 * Redirects are followed by hand so that every hop passes the same checks as the first request:
 * the scheme, credentials, names and literal addresses (checkUrl), no step down from https to
 * http, and a hop limit. The request headers a caller chose travel only while the chain stays on
 * the origin they were meant for: `Authorization` for one site must never reach another. A caller
 * may also pin the whole chain to its first origin (`stayOn`): a hop elsewhere is then refused
 * before it is requested, not read and thrown away afterwards.
 */
import { UserError } from '@mcpkit/core/errors';
import { shownUrl } from '../content/shown.js';
import type { AddressPolicy } from './address-policy.js';
import { checkUrl } from './url-check.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** True for a status that redirects when it comes with a `Location`. */
export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The checked URL of the next hop, or a {@link UserError} saying why it is not followed.
 * `hops` is the number of redirects already followed; with `stayOn` (an origin), a hop to any
 * other origin is refused.
 *
 * @example
 * ```ts
 * const next = nextHop(current, response.headers.get('location') ?? '', 0, 5, policy);
 * ```
 */
export function nextHop(
  from: URL,
  location: string,
  hops: number,
  maxRedirects: number,
  policy: AddressPolicy,
  stayOn?: string,
): URL {
  if (hops >= maxRedirects)
    throw new UserError(
      `Stopped after ${maxRedirects} redirects from ${from.origin}; the site redirects too often.`,
    );
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new UserError(`${shownUrl(from.href)} redirected to an invalid URL; it was not followed.`);
  }
  if (stayOn !== undefined && target.origin !== stayOn)
    throw new UserError(
      `${shownUrl(from.href)} redirects to ${shownUrl(target.origin)}, another site, so it was not read.`,
    );
  if (from.protocol === 'https:' && target.protocol === 'http:')
    throw new UserError(
      `${shownUrl(from.href)} redirected from https to plain http (${shownUrl(target.href)}); fetch the http URL yourself if you trust it.`,
    );
  try {
    return checkUrl(target, policy);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw new UserError(`Redirect from ${shownUrl(from.href)} refused: ${error.message}`);
  }
}

/** Request headers the caller may not set: the transport's own, and ones the client sets itself. */
const FORBIDDEN = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
  'accept-encoding',
  'user-agent',
  'if-none-match',
  'if-modified-since',
]);

/**
 * Validates caller-chosen headers, refusing the transport's own and any `Proxy-*` header.
 * Returns them with lower-case names.
 */
export function customHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (FORBIDDEN.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-'))
      throw new UserError(`The header "${name}" cannot be set on a fetch; remove it.`);
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(lower) || /[\r\n\0]/.test(value))
      throw new UserError(`The header "${name}" is not a valid HTTP header; remove it.`);
    out[lower] = value;
  }
  return out;
}
