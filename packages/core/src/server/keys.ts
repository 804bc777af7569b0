import { hkdfSync, randomBytes } from 'node:crypto';
import type { Logger } from '../logging/logger.js';

/** The environment variable that carries the shared secret for signed request state and cursors. */
export const STATE_KEY_ENV = 'MCPKIT_STATE_KEY';

/**
 * Keys derived from one secret, one per use, so that a cursor can never be replayed as request
 * state or the other way round.
 */
export interface AppKeys {
  /** HMAC key of the 2026-era `requestState` codec. */
  readonly requestState: Uint8Array;
  /** HMAC key of pagination cursors. */
  readonly cursors: Uint8Array;
  /** True when no secret was configured and the process made its own. */
  readonly ephemeral: boolean;
}

function derive(secret: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), `mcpkit ${purpose} v1`, 32));
}

/**
 * Derives the app's keys from `MCPKIT_STATE_KEY` (at least 32 bytes). Without it, a random key
 * is made and a notice is logged: 2026-era HTTP is stateless, so every process that can receive
 * a retried round of the same call must share the key.
 *
 * @example
 * ```ts
 * const keys = resolveKeys(process.env, log); // MCPKIT_STATE_KEY=$(openssl rand -hex 32)
 * ```
 */
export function resolveKeys(env: Record<string, string | undefined>, log?: Logger): AppKeys {
  const configured = env[STATE_KEY_ENV];
  let secret: Uint8Array;
  let ephemeral = false;
  if (configured !== undefined && configured !== '') {
    secret = new TextEncoder().encode(configured);
    if (secret.byteLength < 32) {
      throw new Error(
        `${STATE_KEY_ENV} must be at least 32 bytes long; generate one with "openssl rand -hex 32".`,
      );
    }
  } else {
    secret = randomBytes(32);
    ephemeral = true;
    log?.debug(`${STATE_KEY_ENV} is not set: using a random key for this process.`);
  }
  return { requestState: derive(secret, 'request-state'), cursors: derive(secret, 'cursors'), ephemeral };
}
