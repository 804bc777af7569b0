/**
 * Where the built bins are and which Node runs them. The bins run on the user's Node (the first
 * `node` on PATH outside `node_modules/.bin`): under npm scripts a dev dependency's Node 22 comes
 * first, and the project supports and tests Node 20.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The built bin a workspace package declares (its only `bin` entry), found as Node would find the
 * package: the file `npx` would run, the bundled one included.
 */
export function builtBin(pkg: string): string {
  let dir = HERE;
  for (;;) {
    const manifest = join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest)) {
      const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
      const [script] = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
      if (script === undefined) throw new Error(`${pkg} declares no bin.`);
      const file = join(dirname(manifest), script);
      if (!existsSync(file)) throw new Error(`${pkg} is not built; run "npx turbo run build" first.`);
      return file;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${pkg} is not installed in this workspace.`);
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
