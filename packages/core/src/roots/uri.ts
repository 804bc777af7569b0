/**
 * `file://` URIs ⇄ paths, for MCP roots (which are always `file://` URIs) and for path arguments
 * given as URIs. Only local files: a URI naming another host would become a UNC path on Windows.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Why a string could not be read as a local `file://` URI. */
export type FileUriProblem = 'not-file' | 'remote-host' | 'invalid';

/** The outcome of {@link parseFileUri}. */
export type FileUriResult = { ok: true; path: string } | { ok: false; problem: FileUriProblem };

/**
 * Parses a URI into a local path for `platform`. The path is decoded (`%20` → space) and may hold
 * characters that still need validating, such as an encoded NUL.
 *
 * @example parseFileUri('file:///srv/app') // { ok: true, path: '/srv/app' }
 */
export function parseFileUri(uri: string, platform: NodeJS.Platform = process.platform): FileUriResult {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  if (url.protocol !== 'file:') return { ok: false, problem: 'not-file' };
  if (url.hostname !== '' && url.hostname.toLowerCase() !== 'localhost') {
    return { ok: false, problem: 'remote-host' };
  }
  try {
    // A localhost host is dropped first so that Windows does not turn it into \\localhost\….
    url.hostname = '';
    return { ok: true, path: fileURLToPath(url, { windows: platform === 'win32' }) };
  } catch {
    // Encoded separators (%2F) and, on Windows, a missing drive letter end up here.
    return { ok: false, problem: 'invalid' };
  }
}

/**
 * The path of a client root URI, or `undefined` for anything that is not a local `file://` URI
 * (or decodes to a control character). Callers skip such roots.
 *
 * @example rootUriToPath('file:///home/me/app') // '/home/me/app'
 * @example rootUriToPath('https://example.com') // undefined
 */
export function rootUriToPath(uri: string): string | undefined {
  const result = parseFileUri(uri);
  if (!result.ok || /[\u0000-\u001f]/.test(result.path)) return undefined;
  return result.path;
}

/**
 * The `file://` URI of an absolute path, as sent in a roots list or a resource URI.
 *
 * @example pathToRootUri('/home/me/my app') // 'file:///home/me/my%20app'
 */
export function pathToRootUri(absolutePath: string): string {
  return pathToFileURL(absolutePath).href;
}
