/**
 * What an attack is, and the request builders every group of attacks shares. Each attack is one
 * deviation from a request the server serves with 200, so a refusal can only come from the check
 * under test.
 */
import { type RawResponse, sendRaw } from '../raw.js';
import { type Endpoint, type HeaderEdits, modernPost } from '../requests.js';
import type { ServerUnderTest } from '../servers.js';

export interface Attack {
  name: string;
  /** Only meaningful where the bin requires a bearer token. */
  tokenOnly?: boolean;
  status: number;
  /** The JSON-RPC error code the refusal must carry, when the spec or the runner fixes one. */
  code?: number;
  /** Extra checks on the refusal beyond status and code. */
  check?: (response: RawResponse) => void;
  send(at: Endpoint, server: ServerUnderTest): Promise<RawResponse>;
}

/** A POST like the good one with header `edits` (and optionally another body). */
export const post = (edits: HeaderEdits, body?: string) => (at: Endpoint) =>
  sendRaw(at.port, modernPost(at, edits, body));

/** The unmodified request every attack deviates from. */
export function goodRequest(at: Endpoint): Promise<RawResponse> {
  return sendRaw(at.port, modernPost(at));
}
