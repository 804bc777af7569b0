/**
 * Fork-as-template: someone copies one server folder out of the
 * monorepo and builds it on its own. The copy keeps everything a person would copy, and changes
 * only what cannot come along: the workspace links to `@mcpkit/*` packages (core, and the bundler
 * its build runs) become the published tarballs, the tsconfig chain into the monorepo becomes one standalone file, and the compiler the
 * root provided is declared.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type Manifest, ROOT } from './workspaces.js';

/** The version the fork gets, so `--version` proves the bin reads the fork's own package.json. */
export const FORK_VERSION = '1.0.0-fork.1';

/** Build outputs and tool caches a person would not copy (or that would hide a broken build). */
const NOT_COPIED = new Set(['node_modules', 'dist', '.reports', '.turbo']);

interface TsConfig {
  extends?: string;
  references?: unknown[];
  compilerOptions?: Record<string, unknown>;
  include?: string[];
  exclude?: string[];
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const writeJson = (file: string, value: unknown) =>
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** Points every dependency named in `tarballs` (package name → tarball path) at its tarball. */
function rewire(
  deps: Record<string, string> | undefined,
  tarballs: ReadonlyMap<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, range] of Object.entries(deps ?? {})) {
    const tarball = tarballs.get(name);
    out[name] = tarball ? `file:${tarball}` : range;
  }
  return out;
}

/** Copies the server folder `source` to `dest` and rewires it to stand alone on the packed `tarballs`. */
export function forkServer(source: string, dest: string, tarballs: ReadonlyMap<string, string>): Manifest {
  cpSync(source, dest, {
    recursive: true,
    filter: (path) => !NOT_COPIED.has(basename(path)) && !path.endsWith('.tsbuildinfo'),
  });

  const rootManifest = readJson<Manifest>(join(ROOT, 'package.json'));
  const manifest = readJson<Manifest>(join(dest, 'package.json'));
  const dev = rootManifest.devDependencies ?? {};
  const fork: Manifest = {
    ...manifest,
    name: `fork-of-${basename(source)}`,
    version: FORK_VERSION,
    dependencies: rewire(manifest.dependencies, tarballs),
    devDependencies: {
      ...rewire(manifest.devDependencies, tarballs),
      // Inside the monorepo the root supplies these.
      typescript: dev.typescript ?? 'latest',
      '@types/node': dev['@types/node'] ?? 'latest',
    },
  };
  writeJson(join(dest, 'package.json'), fork);

  // One tsconfig with the base settings inlined: no `extends` into the monorepo, no references.
  const base = readJson<TsConfig>(join(ROOT, 'tsconfig.base.json'));
  const own = readJson<TsConfig>(join(dest, 'tsconfig.json'));
  const { tsBuildInfoFile: _cache, ...ownOptions } = own.compilerOptions ?? {};
  writeJson(join(dest, 'tsconfig.json'), {
    compilerOptions: { ...base.compilerOptions, ...ownOptions, composite: false, incremental: false },
    include: own.include ?? ['src'],
    // The bin stays out of tsc's emit: mcpkit-bundle builds dist/bin.js from its source.
    ...(own.exclude ? { exclude: own.exclude } : {}),
  });
  // The type-check config extended the monorepo base too; point it at the standalone file.
  writeJson(join(dest, 'tsconfig.check.json'), {
    extends: './tsconfig.json',
    compilerOptions: { noEmit: true, rootDir: '.' },
    include: ['src', 'test'],
  });
  return fork;
}
