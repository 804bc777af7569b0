/** How the git resources spell their URIs: the repository's name and refs percent-encoded, paths kept readable. */
import { UserError } from '@mcpkit/core/errors';

/** `git://<repo>/<rest>` with the repository name encoded (names hold "/": "repos/app"). */
export function repoUri(name: string, rest: string): string {
  return `git://${encodeURIComponent(name)}/${rest}`;
}

/** A template variable as the client wrote it, percent-decoded; a bad escape is the client's mistake. */
export function decoded(value: string | string[] | undefined, label: string): string {
  const raw = Array.isArray(value) ? value.join('/') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new UserError(`The ${label} in the URI has a broken %-escape.`);
  }
}
