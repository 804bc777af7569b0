/**
 * The version tag of a cached page: a digest of its body. ETag and Last-Modified decide whether
 * the body is downloaded again; the digest decides whether the page changed, so a server that
 * ignores validators and sends the same bytes again does not wake every subscriber.
 */
import { createHash } from 'node:crypto';
import type { CachedPage } from '../cache/page-cache.js';

// Keyed by the body: a revalidated entry is a new object holding the same bytes.
const digests = new WeakMap<Uint8Array, string>();

/** The SHA-256 of the page's content type and body, computed once per body. */
export function pageDigest(page: CachedPage): string {
  let digest = digests.get(page.body);
  if (digest === undefined) {
    digest = createHash('sha256').update(page.contentType).update('\0').update(page.body).digest('base64url');
    digests.set(page.body, digest);
  }
  return digest;
}
