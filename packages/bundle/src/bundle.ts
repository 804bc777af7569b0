/**
 * Bundles a server's bin into one ESM file, from its TypeScript source (esbuild strips the types;
 * `tsc` type-checks it and builds the library entry, but leaves the bin to this).
 *
 * Why: on Node 20 a server that imports the MCP SDK, zod and our core loads several hundred
 * modules; the ESM loader's resolve, read and link work per module is most of its cold start.
 * One file cuts that to a single read and compile (measured: about 0.6× the start-up of the
 * unbundled bin). The package's library entry is left alone: only the bin is bundled. Native
 * addons stay external (native-externals.ts).
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { build } from 'esbuild';
import { nativeExternals } from './native-externals.js';
import { type BundledPackage, bundledPackages, renderNotices } from './notices.js';

export interface BundleOptions {
  /** The bin's entry, e.g. `src/bin.ts` (TypeScript or compiled JavaScript). */
  entry: string;
  /** Where the bundle goes, e.g. `dist/bin.js`; the licenses go beside it as `<outfile>.LICENSE.txt`. */
  outfile: string;
  /** The package folder (its own code is not listed as third-party); relative paths are taken from it. Default: the current directory. */
  cwd?: string;
}

export interface BundleResult {
  outfile: string;
  noticesFile: string;
  bytes: number;
  packages: BundledPackage[];
  /** Native addons left out of the bundle and imported from node_modules at run time. */
  external: string[];
}

/**
 * CommonJS dependencies bundled into ESM still call `require` for Node's built-ins; ESM has no
 * `require`, so the bundle makes one.
 */
const REQUIRE_SHIM =
  "import { createRequire as __mcpkitCreateRequire } from 'node:module';\nconst require = __mcpkitCreateRequire(import.meta.url);";

/**
 * Bundles `entry` and everything it imports into `outfile`, executable, with a license file beside it.
 *
 * @example
 * await bundleBin({ entry: 'src/bin.ts', outfile: 'dist/bin.js' });
 */
export async function bundleBin(options: BundleOptions): Promise<BundleResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const entry = resolve(cwd, options.entry);
  const outfile = resolve(cwd, options.outfile);
  const noticesFile = `${outfile}.LICENSE.txt`;
  const external = new Set<string>();
  const result = await build({
    entryPoints: [entry],
    outfile,
    absWorkingDir: cwd,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Whitespace and syntax only: names stay readable in a report of an internal error.
    minifyWhitespace: true,
    minifySyntax: true,
    // The license texts go to the notices file, in full, rather than as scattered comments.
    legalComments: 'none',
    banner: { js: `// Bundled with third-party code; see ${basename(noticesFile)}.\n${REQUIRE_SHIM}` },
    metafile: true,
    plugins: [nativeExternals(external)],
    logLevel: 'silent',
  });
  const packages = bundledPackages(Object.keys(result.metafile.inputs), cwd, cwd);
  writeFileSync(noticesFile, renderNotices(basename(outfile), packages));
  chmodSync(outfile, 0o755);
  return { outfile, noticesFile, bytes: statSync(outfile).size, packages, external: [...external].sort() };
}
