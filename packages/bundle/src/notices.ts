/**
 * Third-party notices for a bundle. MIT, BSD and Apache licenses ask that their text travel with
 * every copy of the code; a bundle copies the code out of node_modules, so the texts must come
 * along in a file beside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';

/** One package whose code went into the bundle. */
export interface BundledPackage {
  name: string;
  version: string;
  /** The `license` field of its package.json (an SPDX expression), or "UNKNOWN". */
  license: string;
  /** The text of its license file, when it ships one. */
  licenseText?: string;
}

interface PackageJson {
  name?: string;
  version?: string;
  license?: string | { type?: string };
}

// NOTICE files too: Apache-2.0 asks that they travel with the code as well.
const LICENSE_FILE = /^(?:licen[cs]e|copying|notice)(?:[.-].*)?$/i;

function readPackage(dir: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The folder of the nearest package.json with a name above `file` (nested ones may only set `type`). */
function owningPackageDir(file: string, cache: Map<string, string | undefined>): string | undefined {
  const seen: string[] = [];
  let dir = dirname(file);
  const { root } = parse(dir);
  let found: string | undefined;
  for (;;) {
    if (cache.has(dir)) {
      found = cache.get(dir);
      break;
    }
    seen.push(dir);
    if (readPackage(dir)?.name) {
      found = dir;
      break;
    }
    if (dir === root) break;
    dir = dirname(dir);
  }
  for (const d of seen) cache.set(d, found);
  return found;
}

function licenseText(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => LICENSE_FILE.test(name))
    .sort();
  if (files.length === 0) return undefined;
  return files.map((file) => readFileSync(join(dir, file), 'utf8').trim()).join('\n\n');
}

/**
 * The packages (other than `self`, the package being bundled) that the bundle's input files belong
 * to, sorted by name. `inputs` are the bundler's input paths, relative to `workingDir`.
 */
export function bundledPackages(
  inputs: Iterable<string>,
  workingDir: string,
  self: string,
): BundledPackage[] {
  const cache = new Map<string, string | undefined>();
  const dirs = new Set<string>();
  for (const input of inputs) {
    // Bundler-internal inputs ("<runtime>", "node:fs") have no file.
    if (input.startsWith('<') || input.includes(':')) continue;
    const dir = owningPackageDir(resolve(workingDir, input), cache);
    if (dir && dir !== self) dirs.add(dir);
  }
  const packages = [...dirs].map((dir): BundledPackage => {
    const manifest = readPackage(dir) ?? {};
    const license = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
    const text = existsSync(dir) ? licenseText(dir) : undefined;
    return {
      name: manifest.name ?? dir,
      version: manifest.version ?? '0.0.0',
      license: license ?? 'UNKNOWN',
      ...(text ? { licenseText: text } : {}),
    };
  });
  return packages.sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1,
  );
}

/** The notices file: one section per package, its license text verbatim. */
export function renderNotices(bundle: string, packages: readonly BundledPackage[]): string {
  const sections = packages.map((p) =>
    [
      `## ${p.name}@${p.version} (${p.license})`,
      '',
      p.licenseText ?? `This package ships no license file; its package.json declares ${p.license}.`,
    ].join('\n'),
  );
  return [
    `# Third-party code in ${bundle}`,
    '',
    `${bundle} holds code from the ${packages.length} packages below, bundled so the program starts quickly. Their licenses follow.`,
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
}
