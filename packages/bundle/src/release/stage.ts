/**
 * The folder a bundle is packed from: what the bin needs at run time and nothing a user's host
 * has no use for. The bin finds its package.json one level above itself (its version and name),
 * and Node needs that file's `"type": "module"` to load the bundled ESM, so a trimmed copy goes in.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ServerDescription } from './description.js';
import { ReleaseError } from './errors.js';
import { nativeImports, refuseLink, stageNatives } from './natives.js';

/** Build outputs nothing runs: type declarations, source maps, tsc's incremental state. */
const NOT_RUN = /(?:\.d\.[cm]?ts|\.map|\.tsbuildinfo)$/;

export interface Staged {
  /** Native packages carried in node_modules (empty for a pure-JavaScript server). */
  natives: string[];
  /** Every package copied into node_modules, natives and what they load. */
  packages: string[];
  icon: boolean;
}

/** Copies the package's run-time files from `desc.dir` into the empty folder `stage`. */
export async function stageFiles(desc: ServerDescription, stage: string): Promise<Staged> {
  const { dir, pkg } = desc;
  const dist = join(dir, 'dist');
  if (!existsSync(dist))
    throw new ReleaseError('dist/ does not exist; build the package before the release.');
  mkdirSync(stage, { recursive: true });
  cpSync(dist, join(stage, 'dist'), {
    recursive: true,
    filter: (file) => {
      if (NOT_RUN.test(file) || relative(dist, file).split(sep).includes('node_modules')) return false;
      refuseLink(file, relative(dir, file));
      return true;
    },
  });
  const trimmed = {
    name: pkg.name,
    version: pkg.version,
    ...(pkg.description ? { description: pkg.description } : {}),
    ...(pkg.license ? { license: pkg.license } : {}),
    private: true,
    type: 'module',
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(trimmed, null, 2)}\n`);
  for (const file of ['LICENSE', 'README.md']) {
    if (!existsSync(join(dir, file)))
      throw new ReleaseError(`${file} is missing; a bundle carries the package's ${file}.`);
    copyFileSync(join(dir, file), join(stage, file));
  }
  const icon = existsSync(join(dir, 'icon.png'));
  if (icon) copyFileSync(join(dir, 'icon.png'), join(stage, 'icon.png'));
  // Scanned where npm installed the dependencies: the staged copy has no node_modules above it.
  const natives = await nativeImports(dist, dir);
  const packages = await stageNatives(natives, dir, stage);
  return { natives, packages, icon };
}
