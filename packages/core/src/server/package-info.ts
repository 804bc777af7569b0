import { readFileSync } from 'node:fs';

/** A package's name, version and description, as its package.json gives them. */
export interface PackageInfo {
  name: string;
  version: string;
  description?: string;
}

/**
 * Reads a package's own package.json, so the version lives in one place: `serverInfo.version`,
 * `--version` and `--help` all come from it, and a forked server reports its own.
 *
 * @example
 * ```ts
 * // In src/server.ts: dist/server.js, the bundled dist/bin.js and src/server.ts sit one level down.
 * export const PACKAGE_JSON = new URL('../package.json', import.meta.url);
 * const { version } = readPackageInfo(PACKAGE_JSON);
 * ```
 */
export function readPackageInfo(packageJson: URL): PackageInfo {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as Partial<PackageInfo>;
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') {
    throw new Error(`${packageJson.pathname} has no name or version.`);
  }
  return {
    name: pkg.name,
    version: pkg.version,
    ...(typeof pkg.description === 'string' ? { description: pkg.description } : {}),
  };
}
