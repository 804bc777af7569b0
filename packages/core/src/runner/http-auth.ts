/**
 * Bearer-token authentication for the HTTP runner (the spec's Streamable HTTP security guidance: authenticate every connection).
 * Every request is verified, sessions are never credentials, and the comparison leaks neither the
 * token's bytes nor its length through timing: both sides are hashed to 32 bytes first.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { type HttpRejection, reject, SERVER_ERROR } from './http-errors.js';

/**
 * Maps a presented bearer token to a principal id, or `undefined` to refuse it. Legacy sessions are
 * bound to the principal that opened them.
 */
export type TokenVerifier = (token: string) => string | undefined;

/** 9999-12-31T23:59:59Z in seconds: a static token does not expire, but the SDK wants a value. */
const FAR_FUTURE_SECONDS = 253_402_300_799;

/** The challenge every 401 carries (RFC 6750 §3). */
export const BEARER_CHALLENGE = 'Bearer realm="mcp"';

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The default verifier for one configured token. The principal is the token's SHA-256, so what a
 * session stores is a hash, never the secret itself.
 */
export function singleTokenVerifier(token: string): TokenVerifier {
  const expected = sha256(token);
  const principal = expected.toString('hex');
  return (candidate) => (timingSafeEqual(sha256(candidate), expected) ? principal : undefined);
}

export type AuthResult =
  | { ok: true; principal: string | undefined; authInfo: AuthInfo | undefined }
  | { ok: false; rejection: HttpRejection };

/** Checks requests against a verifier; with none configured every request passes anonymously. */
export interface RequestAuthenticator {
  readonly enabled: boolean;
  authenticate(req: IncomingMessage): AuthResult;
}

/** Builds the authenticator from the runner options: `verifyToken` wins over `token`. */
export function createAuthenticator(options: {
  token?: string;
  verifyToken?: TokenVerifier;
}): RequestAuthenticator {
  const custom = options.verifyToken;
  // An empty token would lock every client out in a way that looks like a network fault.
  if (custom === undefined && options.token !== undefined && options.token.trim() === '') {
    throw new Error('The bearer token must not be empty; set MCPKIT_TOKEN to a random value.');
  }
  const verify = custom ?? (options.token !== undefined ? singleTokenVerifier(options.token) : undefined);
  if (verify === undefined) {
    return { enabled: false, authenticate: () => ({ ok: true, principal: undefined, authInfo: undefined }) };
  }
  return {
    enabled: true,
    authenticate(req) {
      const header = req.headers.authorization;
      if (header === undefined) {
        return {
          ok: false,
          rejection: reject(401, SERVER_ERROR, 'Unauthorized: a bearer token is required.', {
            headers: { 'www-authenticate': BEARER_CHALLENGE },
          }),
        };
      }
      // Lenient on the token's alphabet (the comparison is exact anyway), strict on the scheme.
      const match = /^Bearer +(\S+) *$/i.exec(header);
      const token = match?.[1];
      const principal = token === undefined ? undefined : verify(token);
      if (token === undefined || principal === undefined) {
        return {
          ok: false,
          rejection: reject(401, SERVER_ERROR, 'Unauthorized: the bearer token is not valid.', {
            headers: { 'www-authenticate': `${BEARER_CHALLENGE}, error="invalid_token"` },
          }),
        };
      }
      const authInfo: AuthInfo = {
        token,
        clientId: custom === undefined ? 'bearer' : principal,
        scopes: [],
        expiresAt: FAR_FUTURE_SECONDS,
      };
      return { ok: true, principal, authInfo };
    },
  };
}
