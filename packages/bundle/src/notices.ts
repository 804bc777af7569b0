/**
 * Third-party notices for a bundle. MIT, BSD and Apache licenses ask that their text travel with
 * every copy of the code; a bundle copies the code out of node_modules, so the texts must come
 * along in a file beside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { vendoredIn } from './vendored.js';

/** One package whose code went into the bundle. */
export interface BundledPackage {
  name: string;
  version: string;
  /** The `license` field of its package.json (an SPDX expression), or "UNKNOWN". */
  license: string;
  /** The text of its license file, when it ships one. */
  licenseText?: string;
  /** Set when the code came copied inside another package's files: that package's name. */
  copiedInto?: string;
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

function describePackage(dir: string): BundledPackage {
  const manifest = readPackage(dir) ?? {};
  const license = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
  const text = existsSync(dir) ? licenseText(dir) : undefined;
  return {
    name: manifest.name ?? dir,
    version: manifest.version ?? '0.0.0',
    license: license ?? 'UNKNOWN',
    ...(text ? { licenseText: text } : {}),
  };
}

/** The nearest installed copy of `name` at or above `from`, to read its license from. */
function installedDir(name: string, from: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (readPackage(candidate)?.name === name) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * A package copied into `owner`'s files. Its license is read from an installed copy of the same
 * package when there is one (license texts do not change between patch releases); the version
 * stays the one the copy was made from.
 */
function describeCopied(
  name: string,
  version: string | undefined,
  owner: string,
  ownerDir: string,
): BundledPackage {
  const installed = installedDir(name, ownerDir);
  const found = installed ? describePackage(installed) : undefined;
  return {
    name,
    version: version ?? found?.version ?? 'unknown',
    license: found?.license ?? 'UNKNOWN',
    copiedInto: owner,
    licenseText:
      found?.licenseText ??
      `No installed copy of ${name} was found to read its license from; see ${name}${version ? `@${version}` : ''} on the npm registry.`,
  };
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
  const files: { file: string; dir: string }[] = [];
  for (const input of inputs) {
    // Bundler-internal inputs ("<runtime>", "node:fs") have no file.
    if (input.startsWith('<') || input.includes(':')) continue;
    const file = resolve(workingDir, input);
    const dir = owningPackageDir(file, cache);
    if (dir && dir !== self) {
      dirs.add(dir);
      files.push({ file, dir });
    }
  }
  const packages = [...dirs].map((dir) => describePackage(dir));
  const listed = new Set(packages.map((p) => p.name));
  for (const { file, dir } of files) {
    const owner = readPackage(dir)?.name ?? dir;
    for (const copied of vendoredIn(readFileSync(file, 'utf8'), owner)) {
      if (listed.has(copied.name)) continue;
      listed.add(copied.name);
      packages.push(describeCopied(copied.name, copied.version, owner, dir));
    }
  }
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
      ...(p.copiedInto ? [`Copied into the published files of ${p.copiedInto}.`, ''] : []),
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
