/**
 * Turns what undici throws into one sentence for the model. undici wraps everything in
 * `TypeError: fetch failed` with the real reason in `cause` (a refusal from the guarded lookup,
 * a timeout code, a TLS error), so the chain is walked to find the reason. Network failures are
 * the caller's business (a wrong URL, a site that is down), hence `UserError`s; the original
 * error stays attached as `cause` for the server log.
 */
import { UserError } from '@mcpkit/core/errors';

/** Causes in order, outermost first, stopping at a cycle or after 8 links. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved right now',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_RESPONSE_STATUS_CODE: 'the server sent an invalid status',
  HPE_INVALID_CONSTANT: 'the server sent an invalid HTTP response',
  HPE_INVALID_HEADER_TOKEN: 'the server sent an invalid HTTP header',
};

/**
 * The {@link UserError} that explains a failed request to `url`. A `UserError` already in the
 * chain (a refusal, a limit) is returned as it is.
 *
 * @example
 * ```ts
 * try { await fetch(url, init); } catch (error) { throw fetchFailure(error, url, limits); }
 * ```
 */
export function fetchFailure(error: unknown, url: URL, limits: { connectTimeoutMs: number }): UserError {
  const chain = causes(error);
  const known = chain.find((link): link is UserError => link instanceof UserError);
  if (known) return known;
  const where = url.host;
  for (const link of chain) {
    const code = codeOf(link);
    const message = link instanceof Error ? link.message : '';
    if (code === 'UND_ERR_CONNECT_TIMEOUT')
      return failure(
        `Connecting to ${where} took longer than ${limits.connectTimeoutMs} ms; try again later.`,
        error,
      );
    if (code === 'UND_ERR_HEADERS_TIMEOUT')
      return failure(`${where} did not answer in time; try again later.`, error);
    if (code === 'UND_ERR_BODY_TIMEOUT')
      return failure(`${where} stopped sending the response; try again later.`, error);
    if (message === 'bad port')
      return failure(
        `Refused to fetch ${url.href}: port ${url.port} is on the fetch standard's blocked list; use another port.`,
        error,
      );
    if (message.includes('content-encodings'))
      return failure(
        `${where} stacked too many content codings on the response, so it was not decoded.`,
        error,
      );
    if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
      return failure(`The TLS certificate of ${where} was not accepted (${code}); check the URL.`, error);
    if (code && NETWORK_CODES[code])
      return failure(
        `Could not fetch ${url.href}: ${NETWORK_CODES[code]}; check the URL or try again later.`,
        error,
      );
    if (code?.startsWith('Z_') || code?.startsWith('ERR__ERROR'))
      return failure(`${where} sent a body that does not decompress; try again later.`, error);
  }
  return failure(`Could not fetch ${url.href}; check the URL or try again later.`, error);
}

function failure(message: string, cause: unknown): UserError {
  return new UserError(message, { cause });
}
