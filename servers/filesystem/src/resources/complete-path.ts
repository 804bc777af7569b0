import { dirname, join, sep } from 'node:path';
import type { RootSet } from '@mcpkit/core/roots';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';

/**
 * Candidates for a path being typed: the allowed directories when nothing is typed yet, otherwise
 * the entries of the directory the typed text is in (directories end with `/`, so the next
 * completion goes one level down). Anything outside the roots completes to nothing.
 */
export async function completePath(
  roots: RootSet,
  typed: string,
  options: { directoriesOnly?: boolean; allowSensitive?: boolean } = {},
): Promise<string[]> {
  if (typed === '') return roots.roots.map((r) => r.path + sep);
  const dir = typed.endsWith('/') || typed.endsWith(sep) ? typed : dirname(typed);
  let real: string;
  try {
    const resolved = await roots.resolve(dir);
    if (!resolved.exists) return [];
    real = resolved.real;
  } catch {
    return [];
  }
  const base = dir.endsWith(sep) || dir.endsWith('/') ? dir : dir + sep;
  const entries = await listDirectory(real).catch(() => []);
  return entries
    .filter((e) => !options.directoriesOnly || e.isDirectory())
    .filter((e) => options.allowSensitive || !isSensitive(join(real, e.name)))
    .map((e) => base + e.name + (e.isDirectory() ? sep : ''));
}
