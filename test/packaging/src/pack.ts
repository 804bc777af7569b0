/**
 * `npm pack` for every publishable package, each tarball also unpacked beside it so the checks
 * read exactly the bytes a user downloads. The packages' `dist` must be built first (turbo's
 * `test` task depends on the build of everything this package depends on).
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runOk } from './run.js';
import { type Manifest, publishablePackages, readManifest } from './workspaces.js';

export interface PackedPackage {
  name: string;
  version: string;
  /** Workspace folder relative to the root, e.g. `packages/core`. */
  path: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Absolute path of the unpacked tarball's `package/` folder. */
  root: string;
  /** The package.json inside the tarball. */
  manifest: Manifest;
  /** Every file in the tarball, relative to `package/`, with `/` separators. */
  files: string[];
}

function listFiles(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => statSync(join(root, file)).isFile())
    .sort();
}

/** Packs every publishable workspace package into `dest` and unpacks each one there. */
export async function packAll(dest: string): Promise<PackedPackage[]> {
  mkdirSync(dest, { recursive: true });
  const packed: PackedPackage[] = [];
  for (const pkg of publishablePackages()) {
    const { stdout } = await runOk('npm', ['pack', '--json', '--pack-destination', dest], { cwd: pkg.dir });
    const [info] = JSON.parse(stdout) as { filename: string }[];
    if (info === undefined) throw new Error(`npm pack printed no result for ${pkg.path}`);
    const tarball = join(dest, info.filename);
    const unpacked = join(dest, 'unpacked', info.filename.replace(/\.tgz$/, ''));
    mkdirSync(unpacked, { recursive: true });
    await runOk('tar', ['-xzf', tarball, '-C', unpacked], { cwd: dest });
    const root = join(unpacked, 'package');
    const manifest = readManifest(root);
    packed.push({
      name: manifest.name,
      version: manifest.version,
      path: pkg.path,
      tarball,
      root,
      manifest,
      files: listFiles(root),
    });
  }
  return packed;
}
