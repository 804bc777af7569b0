/**
 * Native addons stay out of the bundle. A package that builds a `.node` file (better-sqlite3, for
 * one) finds that file beside its own JavaScript at run time, so its code must stay in
 * node_modules where npm installed and built it; the bundle imports it from there like any other
 * dependency.
 *
 * A package counts as native when its folder has a `binding.gyp` or its package.json says
 * `"gypfile": true`: the two marks npm itself uses to decide to run node-gyp.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

/** `better-sqlite3/lib/x` → `better-sqlite3`; `@scope/pkg/x` → `@scope/pkg`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The installed folder of package `name` as Node would find it from `fromDir`, if any. */
function packageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function isNative(dir: string): boolean {
  if (existsSync(join(dir, 'binding.gyp'))) return true;
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).gypfile === true;
  } catch {
    return false;
  }
}

/** An esbuild plugin that leaves every native package external; `found` collects their names. */
export function nativeExternals(found: Set<string>): Plugin {
  const verdicts = new Map<string, boolean>();
  return {
    name: 'mcpkit-native-externals',
    setup(build) {
      // Bare specifiers only: relative paths and node: built-ins are never packages.
      // (esbuild filters are Go regular expressions, without look-ahead.)
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return undefined;
        const name = packageName(args.path);
        const dir = packageDir(name, args.resolveDir);
        if (dir === undefined) return undefined;
        let native = verdicts.get(dir);
        if (native === undefined) {
          native = isNative(dir);
          verdicts.set(dir, native);
        }
        if (!native) return undefined;
        found.add(name);
        return { path: args.path, external: true };
      });
    },
  };
}
