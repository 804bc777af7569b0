/**
 * The checks a URL must pass before any request is made for it, on the first request and again
 * on every redirect: a WHATWG parse (which turns `127.1`, `2130706433` and `0x7f000001` into
 * `127.0.0.1`), http or https only, no `user:password@`, no name that means this machine, and
 * for a literal IP address the address check itself, because Node never calls the resolver for
 * one (verified: undici's connector hands IP literals straight to `net.connect`).
 */
import { isIP } from 'node:net';
import { UserError } from '@mcpkit/core/errors';
import { sanitizeForMessage } from '@mcpkit/core/roots';
import { type AddressPolicy, normalizeHostname } from './address-policy.js';
import { MAX_URL_LENGTH } from './url-length.js';

/**
 * Parses and checks one URL, returning it parsed. Throws a {@link UserError} naming what is wrong.
 *
 * @example
 * ```ts
 * checkUrl('http://0x7f000001/', policy); // throws: 127.0.0.1 is a loopback address
 * ```
 */
export function checkUrl(input: string | URL, policy: AddressPolicy): URL {
  const text = String(input);
  if (text.length > MAX_URL_LENGTH)
    throw new UserError(
      `The URL is ${text.length} characters long; URLs up to ${MAX_URL_LENGTH} are fetched.`,
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(
      `"${sanitizeForMessage(text)}" is not a valid URL; give an absolute http or https URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`Refused to fetch ${url.protocol} URLs; only http and https URLs are fetched.`);
  if (url.username || url.password)
    throw new UserError(
      'Refused to fetch a URL with a user name or password in it; remove the "user:password@" part.',
    );
  const host = normalizeHostname(url.hostname);
  if (!host)
    throw new UserError(`"${text.slice(0, 200)}" has no host name; give an absolute http or https URL.`);
  policy.checkName(url.hostname);
  if (isIP(host)) policy.checkAddress(host, url.hostname);
  return url;
}
