/**
 * Where the built bins are and which Node runs them. The bins run on the user's Node (the first
 * `node` on PATH outside `node_modules/.bin`): under npm scripts a dev dependency's Node 22 comes
 * first, and the project supports and tests Node 20.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The built bin of a workspace package (`dist/index.js`), found as Node would find the package. */
export function builtBin(pkg: string): string {
  let dir = HERE;
  for (;;) {
    const candidate = join(dir, 'node_modules', pkg, 'dist', 'index.js');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${pkg} is not built; run "npx turbo run build" first.`);
    dir = parent;
  }
}

export const USER_NODE = (() => {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || /node_modules[\\/]\.bin/.test(dir)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return process.execPath;
})();
