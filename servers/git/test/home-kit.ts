/**
 * A home folder of the test's own for the git processes the server starts (where `~/` includes
 * lead and git finds the user's ignore and attributes files). The hardening reads `HOME` once, as
 * its module loads, so a test sets it from `vi.hoisted`, before any import of the server:
 *
 * @example
 * ```ts
 * const home = await vi.hoisted(() => import('./home-kit.js').then((kit) => kit.useTempHome()));
 * afterAll(() => rmSync(home, { recursive: true, force: true }));
 * ```
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Makes a temporary folder, sets `HOME` to it, and returns it. */
export function useTempHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-git-home-'));
  process.env.HOME = dir;
  return dir;
}
