/**
 * Windows path forms that must be refused as strings, before anything touches the disk: device and
 * long-path prefixes, UNC shares, alternate data streams, names Windows silently rewrites (trailing
 * dot or space), reserved device names and 8.3 short names. Each of these can make a path that looks
 * inside an allowed directory open something else.
 *
 * The rules run on every platform, but only for inputs that are in Windows form: on POSIX `a:b` or
 * `CON` are ordinary file names and must stay usable.
 */
import { UserError } from '../errors/index.js';
import { sanitizeForMessage } from './sanitize.js';

const DRIVE_ABSOLUTE = /^[A-Za-z]:[\\/]/;
const DRIVE_ANY = /^[A-Za-z]:/;
// CON, PRN, AUX, NUL, COM1-9, LPT1-9 (also the superscript digits Windows accepts), CONIN$, CONOUT$.
const RESERVED = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³]|conin\$|conout\$)$/i;
const SHORT_NAME = /~\d/;
const INVALID_CHARS = /[<>"|?*]/;

/**
 * True when `input` is to be read as a Windows path: it holds a backslash or starts with a drive
 * letter and separator, or the server runs on Windows.
 *
 * @example isWindowsForm('a:b', 'linux') // false
 */
export function isWindowsForm(input: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || input.includes('\\') || DRIVE_ABSOLUTE.test(input);
}

/** True for `C:\…` or `C:/…`: absolute on Windows, and never inside a POSIX root. */
export function hasDriveAbsolutePrefix(input: string): boolean {
  return DRIVE_ABSOLUTE.test(input);
}

/**
 * Throws a `UserError` when a Windows-form path uses a form that is refused. Call it only for inputs
 * where {@link isWindowsForm} is true.
 *
 * @example checkWindowsPath('C:\\work\\CON') // throws: reserved device name
 */
export function checkWindowsPath(input: string): void {
  const q = sanitizeForMessage(input);
  const startsDoubled = /^[\\/]{2}/.test(input);
  if (startsDoubled && /^[\\/]{2}[?.][\\/]/.test(input)) {
    throw new UserError(
      `The path "${q}" uses a Windows device or long-path prefix (\\\\?\\ or \\\\.\\), which is not allowed; give a normal drive path instead.`,
    );
  }
  if (/^[\\/]\?\?[\\/]/.test(input)) {
    throw new UserError(
      `The path "${q}" uses a Windows NT object prefix, which is not allowed; give a normal drive path instead.`,
    );
  }
  if (startsDoubled) {
    throw new UserError(
      `The path "${q}" is a network (UNC) path, which is not allowed; use a path on a local drive inside the allowed directories.`,
    );
  }
  if (DRIVE_ANY.test(input) && !DRIVE_ABSOLUTE.test(input)) {
    throw new UserError(
      `The path "${q}" is relative to a drive's current directory; put a backslash after the drive letter, or give a path relative to the allowed directory.`,
    );
  }
  const rest = DRIVE_ANY.test(input) ? input.slice(2) : input;
  if (rest.includes(':')) {
    throw new UserError(
      `The path "${q}" contains ":" after the drive letter (an alternate data stream); remove it and name the file itself.`,
    );
  }
  if (INVALID_CHARS.test(rest)) {
    throw new UserError(
      `The path "${q}" contains a character Windows does not allow in names (< > " | ? *); remove it.`,
    );
  }
  for (const component of rest.split(/[\\/]/)) {
    checkComponent(component, q);
  }
}

function checkComponent(component: string, q: string): void {
  if (component === '' || component === '.' || component === '..') return;
  if (/[. ]$/.test(component)) {
    throw new UserError(
      `The path "${q}" has a name ending in a dot or space, which Windows silently strips; remove the trailing character.`,
    );
  }
  // Windows ignores the extension and trailing spaces when matching device names: "AUX .txt" is AUX.
  const stem = component.split('.')[0]?.trimEnd() ?? '';
  if (RESERVED.test(stem)) {
    throw new UserError(
      `The path "${q}" uses the reserved Windows device name "${sanitizeForMessage(stem.toUpperCase())}"; choose a different file name.`,
    );
  }
  if (SHORT_NAME.test(component)) {
    throw new UserError(
      `The path "${q}" contains a Windows 8.3 short name ("${sanitizeForMessage(component)}"); use the full long name instead.`,
    );
  }
}
