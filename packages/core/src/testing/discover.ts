/**
 * Finds the servers of a monorepo the way npm finds its packages: the root `workspaces` globs,
 * then every package with a `bin` and a test world. The outside-in test layers and `npm start`
 * use it, so a server folder copied into the workspace is picked up with no edit outside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestWorld } from './world.js';

/** A server folder the test layers run. */
export interface DiscoveredServer {
  /** The folder's name, e.g. `filesystem`: names temporary directories, reports and baselines. */
  name: string;
  /** The package's name, e.g. `@mcpkit/server-filesystem`. */
  packageName: string;
  /** Absolute folder. */
  dir: string;
  /** Folder relative to the repository root, e.g. `servers/filesystem`. */
  path: string;
  /** The built bin its package.json names (the bundled `dist/bin.js` that `npx` runs). */
  bin: string;
  /** Its bin's command name, e.g. `mcpkit-filesystem`. */
  command: string;
  /** Absolute path of its `test/world.ts`. */
  world: string;
  private: boolean;
}

interface Manifest {
  name?: string;
  private?: boolean;
  bin?: string | Record<string, string>;
}

/**
 * Folders a `workspaces` entry names: a folder, or the `dir/*` glob (the form npm documents most).
 * Any other glob is refused rather than skipped, so no server goes untested unnoticed.
 */
function expand(root: string, pattern: string): string[] {
  const plain = pattern.replace(/\/\*$/, '');
  if (/[*?[\]{}!]/.test(plain)) {
    throw new Error(
      `The workspaces pattern "${pattern}" is not a folder or "folder/*"; discovery reads only those.`,
    );
  }
  if (!pattern.endsWith('/*')) return [join(root, pattern)];
  const base = join(root, pattern.slice(0, -2));
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(base, e.name));
}

/**
 * Every workspace package that has a bin and a `test/world.ts`, sorted by path. A package with a
 * bin but no world is a mistake a test should catch: see {@link serversWithoutWorld}.
 *
 * @example
 * ```ts
 * for (const server of discoverServers(process.cwd())) console.log(server.name, server.bin);
 * ```
 */
export function discoverServers(root: string): DiscoveredServer[] {
  return candidates(root)
    .filter((c) => existsSync(c.world))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Workspace packages with a bin under `servers/` but no test world: each one is a layer's blind spot. */
export function serversWithoutWorld(root: string): string[] {
  return candidates(root)
    .filter((c) => c.path.startsWith('servers/') && !existsSync(c.world))
    .map((c) => c.path);
}

function candidates(root: string): DiscoveredServer[] {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces?: string[] | { packages?: string[] };
  };
  // npm takes a list; the `{ packages: [...] }` form other tools write is read the same way.
  const listed = rootManifest.workspaces;
  const workspaces = Array.isArray(listed) ? listed : (listed?.packages ?? []);
  const found: DiscoveredServer[] = [];
  for (const dir of workspaces.flatMap((p) => expand(root, p))) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    // A bin given as a string is installed under the package's name without its scope, as npm does.
    const bare = String(pkg.name).replace(/^@[^/]+\//, '');
    const bins = typeof pkg.bin === 'string' ? { [bare]: pkg.bin } : pkg.bin;
    const [command, script] = Object.entries(bins ?? {})[0] ?? [];
    if (!pkg.name || command === undefined || script === undefined) continue;
    const path = relative(root, dir).split('\\').join('/');
    found.push({
      name: path.split('/').pop() ?? path,
      packageName: pkg.name,
      dir,
      path,
      bin: join(dir, script),
      command,
      world: join(dir, 'test', 'world.ts'),
      private: pkg.private === true,
    });
  }
  return found;
}

/** The server's built bin; throws one sentence saying what to run when it is not built yet. */
export function builtBin(server: DiscoveredServer): string {
  if (!existsSync(server.bin)) {
    throw new Error(`${server.path} is not built (no ${server.bin}); run "npx turbo run build" first.`);
  }
  return server.bin;
}

/**
 * The server's test world. `test/world.ts` is TypeScript, so this works where TypeScript is loaded
 * on import (vitest); a plain Node script loads it through vite's `runnerImport` instead.
 */
export async function loadWorld(server: DiscoveredServer): Promise<TestWorld> {
  const { world } = (await import(pathToFileURL(server.world).href)) as { world?: TestWorld };
  if (!world || world.tools.length === 0)
    throw new Error(`${server.world} exports no world with tools to check.`);
  return world;
}
