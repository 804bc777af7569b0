/**
 * Validation of a user-supplied path string, before anything is resolved on disk. The string that
 * is validated is the string that is used: nothing is "cleaned" (quotes, whitespace), because a
 * cleaner that disagrees with the real call is a bypass (GHSA-7rgq-gccq-qphx).
 *
 * Accepted forms:
 * - absolute paths, and paths relative to the FIRST allowed root. The official filesystem server
 *   behaves the same way, so a user's prompts ("read notes/todo.md") keep working;
 * - `~` and `~/…`, expanded to the home directory and then checked like any other path (so `~/../..`
 *   is simply outside). `~name` (another user's home) is rejected: it would need a user database
 *   lookup and is never what a model means;
 * - `file://` URIs for the local host.
 *
 * Everything is normalised to Unicode NFC (the on-disk NFD fallback lives in `unicode.ts`).
 */
import { UserError } from '../errors/index.js';
import { pathFor } from './containment.js';
import { outsideError } from './messages.js';
import { sanitizeForMessage } from './sanitize.js';
import { parseFileUri } from './uri.js';
import { checkWindowsPath, hasDriveAbsolutePrefix, isWindowsForm } from './windows.js';

/** Longest accepted input, in UTF-16 code units (the Windows long-path limit). */
export const MAX_PATH_INPUT_LENGTH = 32_767;

/** Where relative and `~` paths are anchored. */
export interface PathInputOptions {
  /** Absolute directory that relative inputs are resolved against (the first allowed root). */
  base: string;
  /** Home directory for `~`; without it, `~` inputs are rejected. */
  home?: string;
  /** Defaults to `process.platform`; set it to test Windows rules on another host. */
  platform?: NodeJS.Platform;
}

// C0 controls (NUL, tab, newline, …) and DEL: never part of a path a model should send.
const CONTROL = /[\u0000-\u001f\u007f]/;
// A URI needs a scheme of two or more letters (so `C:\x` is not one) followed by "//"; `file:` is
// recognised with any number of slashes. A bare `name:rest` is a legal POSIX file name.
const URI_LIKE = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//;
const FILE_SCHEME = /^file:/i;

/**
 * Validates `input` and returns the absolute, lexically normalised path it names (NFC). Throws a
 * `UserError` for anything refused. The result still has to be checked for containment.
 *
 * @example parsePathInput('src/x.ts', { base: '/srv/app' }) // '/srv/app/src/x.ts'
 */
export function parsePathInput(input: string, options: PathInputOptions): string {
  const platform = options.platform ?? process.platform;
  const p = pathFor(platform);
  checkPlainString(input, input);

  let candidate = input;
  if (FILE_SCHEME.test(input) || URI_LIKE.test(input)) {
    candidate = fromUri(input, platform);
    // Percent-decoding can produce what the raw string did not contain (%00, %0A).
    checkPlainString(candidate, input);
  }
  candidate = candidate.normalize('NFC');

  if (isWindowsForm(candidate, platform)) {
    checkWindowsPath(candidate);
    // No POSIX root can hold C:\…; answer as for any other outside path.
    if (platform !== 'win32' && hasDriveAbsolutePrefix(candidate)) throw outsideError(input);
  }

  candidate = expandHome(candidate, input, options.home, platform);
  return p.resolve(options.base, candidate);
}

function checkPlainString(value: string, input: string): void {
  if (value.length === 0) {
    throw new UserError('The path is empty; give a file or directory path inside an allowed directory.');
  }
  if (value.length > MAX_PATH_INPUT_LENGTH) {
    throw new UserError(
      `The path is too long (${value.length} characters, the limit is ${MAX_PATH_INPUT_LENGTH}); give a shorter path.`,
    );
  }
  if (CONTROL.test(value)) {
    throw new UserError(
      `The path "${sanitizeForMessage(input)}" contains a control character (such as a NUL byte, tab or newline); remove it and try again.`,
    );
  }
}

function fromUri(input: string, platform: NodeJS.Platform): string {
  const q = sanitizeForMessage(input);
  const result = parseFileUri(input, platform);
  if (result.ok) return result.path;
  switch (result.problem) {
    case 'not-file':
      throw new UserError(
        `The path "${q}" is a URI with an unsupported scheme; give a plain path or a file:// URI.`,
      );
    case 'remote-host':
      throw new UserError(
        `The path "${q}" is a file:// URI on another host; give a local path or a file:/// URI.`,
      );
    default:
      throw new UserError(`The path "${q}" is not a valid file:// URI; give a plain path instead.`);
  }
}

function expandHome(
  value: string,
  input: string,
  home: string | undefined,
  platform: NodeJS.Platform,
): string {
  if (!value.startsWith('~')) return value;
  const separators = platform === 'win32' ? /^~(?:$|[\\/])/ : /^~(?:$|\/)/;
  const q = sanitizeForMessage(input);
  if (!separators.test(value)) {
    throw new UserError(
      `The path "${q}" uses "~name" (another user's home directory), which is not supported; use "~/" for your own home or give the full path.`,
    );
  }
  if (home === undefined || home === '') {
    throw new UserError(
      `The path "${q}" starts with "~" but no home directory is known; give the full path instead.`,
    );
  }
  return pathFor(platform).join(home, value.slice(1));
}
