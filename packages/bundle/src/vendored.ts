/**
 * Packages copied into another package's published files. Some dependencies ship pre-bundled
 * output: the MCP SDK's dist holds ajv, fast-uri and others inside its own chunks. The bundler
 * then reports that code as the SDK's, so its licenses would be missed. Bundlers in the rolldown
 * family leave a `//#region <path>` marker per source module; a path through a `node_modules`
 * folder names the package (and, under pnpm's `.pnpm/<name>@<version>` store, its version).
 */

/** A package found copied inside another one's files. */
export interface VendoredPackage {
  name: string;
  /** The version the marker names, when it names one. */
  version?: string;
}

const REGION = /^\/\/#region (\S+)/gm;

/** The package a module path lies in: the part after its last `node_modules/`. */
function packageOfPath(path: string): VendoredPackage | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : parts[0];
  if (!name || name === '.pnpm' || name.endsWith('/')) return undefined;
  // pnpm's store folder: …/.pnpm/<name with + for />@<version>[_peers]/node_modules/<name>/…
  const store = /\.pnpm\/([^/]+)\/node_modules\/$/.exec(path.slice(0, at + 'node_modules/'.length));
  const stored = store?.[1]?.split('_')[0];
  const version =
    stored?.startsWith(`${name.replace('/', '+')}@`) === true ? stored.slice(name.length + 1) : undefined;
  return { name, ...(version ? { version } : {}) };
}

/**
 * The packages whose modules `code` (one published file) carries region markers for, other than
 * `owner`, the package that published it; each once, in order of first appearance.
 *
 * @example
 * vendoredIn('//#region ../../node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/ajv.js\n…', '@modelcontextprotocol/server')
 * // [{ name: 'ajv', version: '8.18.0' }]
 */
export function vendoredIn(code: string, owner: string): VendoredPackage[] {
  const found = new Map<string, VendoredPackage>();
  for (const match of code.matchAll(REGION)) {
    const pkg = packageOfPath(match[1] ?? '');
    if (pkg && pkg.name !== owner && !found.has(pkg.name)) found.set(pkg.name, pkg);
  }
  return [...found.values()];
}
