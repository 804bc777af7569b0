import { basename, sep } from 'node:path';
import picomatch from 'picomatch';

/**
 * Names that hold secrets. A model that reads them can leak them into a conversation, so they are
 * refused unless the operator passes `--allow-sensitive`. Checked on the real path (after symlinks),
 * lower-cased, with Windows' trailing dots, spaces and `:stream` suffixes stripped, so `.ENV.`,
 * `.env::$DATA` and a link named `notes.txt` pointing at `.env` are all caught.
 */
export const SENSITIVE_PATTERNS: readonly string[] = [
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
  'credentials',
  'credentials.json',
  '*.kdbx',
];

/** Directories whose whole content is secret. */
export const SENSITIVE_DIRS: readonly string[] = ['.ssh', '.gnupg', '.aws', '.docker', '.kube'];

const matchName = picomatch([...SENSITIVE_PATTERNS], { dot: true, nocase: true });

function normalise(name: string): string {
  return name
    .replace(/:.*$/, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

/**
 * True when the real path names a secret file, is a secret directory, or lies in one. The
 * directory itself counts too, so `.ssh` cannot be listed, moved or deleted as a whole.
 */
export function isSensitive(realPath: string): boolean {
  const name = normalise(basename(realPath));
  if (name !== '' && matchName(name)) return true;
  return realPath.split(sep).some((part) => SENSITIVE_DIRS.includes(normalise(part)));
}
