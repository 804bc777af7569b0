/**
 * Why a built file of a package failed to load, in one line a user can be shown: Node names the
 * files it could not load by absolute path or file URL, and a message must not show the host's
 * folders, so they are written from the package folder instead.
 */
import { pathToFileURL } from 'node:url';

/** The first line of `error`'s message, with the package folder `dir` written as `.`. */
export function importFailure(error: unknown, dir: string): string {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return first.replaceAll(pathToFileURL(dir).href, '.').replaceAll(dir, '.');
}
