/**
 * The workspace packages, found the way npm finds them (the root `workspaces` globs), so a new
 * server folder is covered without touching this suite.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  description?: string;
  type?: string;
  engines?: Record<string, string>;
  bin?: string | Record<string, string>;
  exports?: unknown;
  files?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface WorkspacePackage {
  /** Absolute folder. */
  dir: string;
  /** Folder relative to the root, e.g. `packages/core`. */
  path: string;
  manifest: Manifest;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Every workspace package; only the `dir/*` glob form is used in this repository. */
export function workspacePackages(): WorkspacePackage[] {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  const found: WorkspacePackage[] = [];
  for (const pattern of root.workspaces) {
    if (!pattern.endsWith('/*')) throw new Error(`unsupported workspaces pattern ${pattern}`);
    const base = join(ROOT, pattern.slice(0, -2));
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      const dir = join(base, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, 'package.json'))) continue;
      found.push({ dir, path: `${pattern.slice(0, -2)}/${entry.name}`, manifest: readManifest(dir) });
    }
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** What npm would publish: every workspace package not marked private. */
export function publishablePackages(): WorkspacePackage[] {
  return workspacePackages().filter((p) => p.manifest.private !== true);
}

/** The `bin` field as name → script, whichever form the manifest uses. */
export function binsOf(manifest: Manifest): Record<string, string> {
  if (manifest.bin === undefined) return {};
  if (typeof manifest.bin === 'string') {
    return { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin };
  }
  return manifest.bin;
}
