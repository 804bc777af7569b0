/**
 * Segment-wise containment. "Inside" means `path.relative(root, target)` is empty or a relative path
 * whose first segment is not `..`; never a string-prefix test, which lets `/srv/app_evil` pass for
 * `/srv/app` (CVE-2025-53110).
 */
import path from 'node:path';

/** The `path` flavour for a platform, so Windows rules can be checked (and tested) on any host. */
export function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/**
 * True when `target` is `root` or below it. Both must be absolute. Case-insensitive on win32
 * (`path.win32.relative` folds case, as NTFS does by default).
 *
 * @example isWithin('/srv/app', '/srv/app_evil/x') // false
 */
export function isWithin(
  root: string,
  target: string,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const p = pathFor(platform);
  if (!p.isAbsolute(root) || !p.isAbsolute(target)) return false;
  const rel = p.relative(root, target);
  if (rel === '') return true;
  if (p.isAbsolute(rel)) return false; // another drive on win32
  return rel !== '..' && !rel.startsWith(`..${p.sep}`);
}
