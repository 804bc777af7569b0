/**
 * `mcpkit-bundle release [--out <dir>]`: run in a server's package folder after its build. Makes
 * `<out>/<bin>-<version>.mcpb` (an MCP Bundle a host installs with a double-click, run on the
 * host's own Node; `<bin>-<version>-<platform>-<arch>.mcpb` when it carries a native binary, so
 * the builds made on several machines do not overwrite each other) and `<out>/server.json` (the MCP Registry entry). `<out>` defaults to
 * `release/`, never `dist/`, which npm publishes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDescription, type ServerDescription } from './description.js';
import { ReleaseError } from './errors.js';
import { ALL_PLATFORMS, buildManifest, type Platform } from './manifest.js';
import { packBundle } from './pack.js';
import { repositoryOf } from './repository.js';
import { buildServerJson, registryDescription, registryName } from './server-json.js';
import { stageFiles } from './stage.js';

export const RELEASE_USAGE = `Usage: mcpkit-bundle release [--out <dir>]
Makes the server's MCP Bundle (<bin>-<version>.mcpb, or <bin>-<version>-<platform>-<arch>.mcpb
when it carries a native addon) and its MCP Registry entry (server.json) in <dir> (default
release/). Run it from the server's package folder after the build: it reads
package.json and the built dist/cli.js, dist/tools/index.js and dist/prompts/index.js.`;

export interface ReleaseResult {
  bundle: string;
  sha256: string;
  serverJson: string;
  /** Platforms the bundle runs on: one when it carries a native binary. */
  platforms: Platform[];
  natives: string[];
}

/** The platforms and Node versions a bundle with a native binary built here can run on. */
function nativeTarget(desc: ServerDescription): { platforms: Platform[]; node: string } {
  const platform = process.platform as Platform;
  if (!ALL_PLATFORMS.includes(platform)) {
    throw new ReleaseError(`Bundles are for macOS, Windows and Linux; this machine is ${process.platform}.`);
  }
  // A native binary is built for one Node ABI: the major version that built it.
  const major = Number(process.versions.node.split('.')[0]);
  const engines = desc.pkg.engines?.node;
  const node = engines && !engines.includes('||') ? `${engines} <${major + 1}` : `${major}.x`;
  return { platforms: [platform], node };
}

/** Makes the bundle and server.json of the package in `dir` into `outDir`. */
export async function release(dir: string, outDir: string): Promise<ReleaseResult> {
  const desc = await loadDescription(dir);
  // Everything the registry would refuse is refused before any work is done.
  const repo = repositoryOf(desc.pkg);
  registryName(desc, repo);
  registryDescription(desc);
  const stage = mkdtempSync(join(tmpdir(), 'mcpkit-release-'));
  try {
    const staged = await stageFiles(desc, stage);
    const target = staged.natives.length > 0 ? nativeTarget(desc) : { platforms: [...ALL_PLATFORMS] };
    const manifest = buildManifest(desc, { ...target, icon: staged.icon });
    mkdirSync(outDir, { recursive: true });
    // A bundle with a binary runs on one platform: its name says which, so builds do not collide.
    const native = staged.natives.length > 0 ? `-${process.platform}-${process.arch}` : '';
    const file = `${desc.cli.bin}-${desc.pkg.version}${native}.mcpb`;
    const bundle = join(outDir, file);
    const sha256 = await packBundle(stage, manifest, bundle);
    const serverJson = join(outDir, 'server.json');
    writeFileSync(serverJson, `${JSON.stringify(buildServerJson(desc, { file, sha256 }), null, 2)}\n`);
    return {
      bundle,
      sha256,
      serverJson,
      platforms: manifest.compatibility.platforms,
      natives: staged.natives,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The `release` subcommand. */
export async function releaseCommand(args: string[]): Promise<void> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new ReleaseError(`${first.replace(/\.$/, '')}; run mcpkit-bundle release --help for the usage.`);
  }
  if (values.help) {
    process.stdout.write(`${RELEASE_USAGE}\n`);
    return;
  }
  const dir = process.cwd();
  const result = await release(dir, resolve(values.out ?? 'release'));
  const shown = (path: string) => relative(dir, path) || '.';
  const only =
    result.natives.length > 0
      ? ` (carries ${result.natives.join(', ')} built for ${result.platforms.join(', ')}: runs there only)`
      : '';
  process.stdout.write(
    `${shown(result.bundle)}: sha256 ${result.sha256}${only}\n${shown(result.serverJson)}: for the MCP Registry\n`,
  );
}
