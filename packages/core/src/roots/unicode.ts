/**
 * Unicode normalisation against what is on disk. Inputs are NFC; macOS (and files copied from it)
 * may store names as NFD. Kept deliberately simple: try the NFC form of the whole tail, then its NFD
 * form, and take the first that exists. Names that mix both forms across components are not found,
 * which fails closed (the path is reported as missing).
 */
import { lstat } from 'node:fs/promises';
import type path from 'node:path';

/**
 * `base` joined with `tail` in whichever Unicode form exists on disk (NFC preferred; NFC when
 * neither exists, so new files get NFC names).
 *
 * @example await existingUnicodeForm('/srv/app', 'cafe\u0301.txt', path) // '/srv/app/café.txt' if that exists
 */
export async function existingUnicodeForm(base: string, tail: string, p: path.PlatformPath): Promise<string> {
  const nfc = p.join(base, tail.normalize('NFC'));
  const nfdTail = tail.normalize('NFD');
  if (nfdTail === tail.normalize('NFC')) return nfc;
  if (await entryExists(nfc)) return nfc;
  const nfd = p.join(base, nfdTail);
  return (await entryExists(nfd)) ? nfd : nfc;
}

async function entryExists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
