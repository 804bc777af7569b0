/**
 * Native addons in a bundle. The bundler leaves them external (../native-externals.ts), so the
 * staged scripts import them from node_modules at run time; the bundle must carry them, with the
 * packages their JavaScript needs, and the binary built here, for this platform and Node only.
 */
import { cpSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { nativeExternals } from '../native-externals.js';
import { ReleaseError } from './errors.js';

/** Every JavaScript file under `dir`, as absolute paths. */
function scripts(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((file) => join(dir, file))
    .filter((file) => /\.[cm]?js$/.test(file) && statSync(file).isFile());
}

/** Marks every import external: only the entry files' own imports are looked at. */
const stopAtImports: Plugin = {
  name: 'mcpkit-stop-at-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * The native packages the scripts in `distDir` import. Bundles have every other package inlined,
 * so a bare import left in a staged script is either native or never loaded by the bin.
 */
export async function nativeImports(distDir: string, cwd: string): Promise<string[]> {
  const entries = scripts(distDir);
  if (entries.length === 0) return [];
  const found = new Set<string>();
  await build({
    entryPoints: entries,
    absWorkingDir: cwd,
    bundle: true,
    write: false,
    outdir: join(cwd, '.mcpkit-scan'),
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [nativeExternals(found), stopAtImports],
  });
  return [...found].sort();
}

/** `…/node_modules/a/node_modules/b/x.js` → `a/node_modules/b` (where it goes under node_modules). */
function installedPath(file: string): { dir: string; path: string } | undefined {
  const marker = `${sep}node_modules${sep}`;
  const first = file.indexOf(marker);
  if (first < 0) return undefined;
  const rest = file.slice(first + marker.length).split(sep);
  const parts: string[] = [];
  for (let i = 0; i < rest.length; ) {
    const name = rest[i]?.startsWith('@') ? rest.slice(i, i + 2) : rest.slice(i, i + 1);
    parts.push(...name);
    i += name.length;
    if (rest[i] !== 'node_modules') break;
    parts.push('node_modules');
    i += 1;
  }
  const path = parts.join('/');
  return { dir: file.slice(0, first + marker.length) + parts.join(sep), path };
}

/** The packages (installed folders) the JavaScript of native package `name` loads, itself included. */
async function packagesOf(name: string, cwd: string): Promise<Map<string, string>> {
  let entry: string;
  try {
    entry = createRequire(join(cwd, 'package.json')).resolve(name);
  } catch {
    throw new ReleaseError(`${name} is imported by the bin but not installed; run npm install first.`);
  }
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: cwd,
    bundle: true,
    write: false,
    outfile: join(cwd, '.mcpkit-scan.js'),
    platform: 'node',
    metafile: true,
    logLevel: 'silent',
  });
  const found = new Map<string, string>();
  for (const input of [entry, ...Object.keys(result.metafile.inputs).map((file) => join(cwd, file))]) {
    const installed = installedPath(input);
    if (installed) found.set(installed.path, installed.dir);
  }
  return found;
}

const PLATFORM_DIR = `${process.platform}-${process.arch}`;

/** Folders of a package that nothing loads at run time. */
const NOT_RUN_DIRS = new Set([
  'node_modules',
  'src',
  'deps',
  'test',
  'tests',
  'docs',
  'benchmark',
  '.github',
]);

/**
 * Keeps what a package needs at run time: its JavaScript and metadata and, for a native one, its
 * binary for this platform (node-gyp's build/Release/*.node, or prebuilds/<platform>-<arch>/),
 * not its C sources, build scripts, intermediates or other platforms' prebuilt binaries.
 */
function keep(root: string, file: string): boolean {
  const rel = relative(root, file).split(sep);
  const [top, second] = rel;
  if (top === undefined || top === '') return true;
  if (rel.length === 1) return !top.endsWith('.gyp');
  if (NOT_RUN_DIRS.has(top)) return false;
  if (top === 'build') {
    if (second !== 'Release') return false;
    return rel.length === 2 || (rel.length === 3 && file.endsWith('.node'));
  }
  if (top === 'prebuilds') return second === undefined || second === PLATFORM_DIR;
  return true;
}

/**
 * Refuses a symbolic link among the files a bundle is made from: the copy would keep it as a link
 * to a host path, and mcpb's packer follows links, so whatever it points to, inside the package
 * or not, would be packed. `shown` is the file's path from the package folder.
 */
export function refuseLink(file: string, shown: string): void {
  if (lstatSync(file).isSymbolicLink()) {
    throw new ReleaseError(
      `${shown.split(sep).join('/')} is a symbolic link; a bundle carries only files inside the package, so replace it with the file itself.`,
    );
  }
}

/** Copies the native packages and what they load into `stage/node_modules`; returns their paths. */
export async function stageNatives(names: readonly string[], cwd: string, stage: string): Promise<string[]> {
  const copied: string[] = [];
  for (const name of names) {
    for (const [path, dir] of await packagesOf(name, cwd)) {
      if (copied.includes(path)) continue;
      // An npm workspace may reach the package folder itself through a link; that is followed
      // here, and only links inside the folder are refused.
      const real = realpathSync(dir);
      cpSync(real, join(stage, 'node_modules', ...path.split('/')), {
        recursive: true,
        filter: (file) => {
          if (!keep(real, file)) return false;
          refuseLink(file, join('node_modules', path, relative(real, file)));
          return true;
        },
      });
      copied.push(path);
    }
  }
  for (const name of names) {
    const staged = join(stage, 'node_modules', ...name.split('/'));
    const binary = (readdirSync(staged, { recursive: true }) as string[]).some((f) => f.endsWith('.node'));
    if (!binary) {
      throw new ReleaseError(
        `${name} has no binary built for ${PLATFORM_DIR}; run npm rebuild ${name} and try again.`,
      );
    }
  }
  return copied;
}
