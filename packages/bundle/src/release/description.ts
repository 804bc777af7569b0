/**
 * What a release is made from: the server's package.json and its description of itself, read
 * from the built package (`dist/cli.js` exports `cli`, `dist/tools/index.js` `tools`,
 * `dist/prompts/index.js` `prompts`). The types here are the shapes this tool reads, kept
 * structural so the build tool does not depend on the toolkit's version.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importFailure } from '../import-failure.js';
import { ReleaseError } from './errors.js';

/** A flag as the runner declares it (node:util parseArgs form plus help text). */
export interface FlagDef {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  description: string;
  valueName?: string;
}

export type SettingType = 'directory' | 'file' | 'string' | 'boolean' | 'number';
export type SettingValue = string | number | boolean | readonly string[];

/** A setting a bundle asks its user for (core's `BundleSetting`). */
export interface SettingDef {
  title: string;
  description: string;
  type: SettingType;
  multiple?: boolean;
  required?: boolean;
  sensitive?: boolean;
  default?: SettingValue;
  min?: number;
  max?: number;
  fills: 'positionals' | { flag: string };
}

/** The command line a server declares (core's `ServerBin`, without `create`). */
export interface CliDef {
  bin: string;
  title?: string;
  usage: string;
  options?: Readonly<Record<string, FlagDef>>;
  positionals?: { name: string; description: string; required: boolean; repeated: boolean };
  exampleArgs?: readonly string[];
  settings?: Readonly<Record<string, SettingDef>>;
}

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
}

export interface PromptDef {
  name: string;
  title?: string;
  description: string;
  /** A zod object; only the names of its fields are read. */
  args?: { shape?: Record<string, unknown> };
}

export interface PackageJson {
  name: string;
  version: string;
  description?: string;
  mcpName?: string;
  license?: string;
  homepage?: string;
  keywords?: string[];
  author?: string | { name: string; email?: string; url?: string };
  repository?: string | { type?: string; url: string; directory?: string };
  bugs?: string | { url?: string };
  engines?: { node?: string };
  bin?: string | Record<string, string>;
}

export interface ServerDescription {
  /** The package folder. */
  dir: string;
  pkg: PackageJson;
  cli: CliDef;
  tools: ToolDef[];
  prompts: PromptDef[];
  /** The variable that carries a flag, from the toolkit the server runs on. */
  envName: (flag: string) => string;
  /** The flags every bin has, when the toolkit exports them. */
  commonOptions?: Readonly<Record<string, FlagDef>>;
}

function readPackageJson(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    throw new ReleaseError(
      "package.json is missing or is not JSON; run mcpkit-bundle release from a server's package folder.",
    );
  }
}

async function importExport(dir: string, file: string, name: string, optional = false): Promise<unknown> {
  const path = join(dir, file);
  if (!existsSync(path)) {
    if (optional) return undefined;
    throw new ReleaseError(
      `${file} does not exist; build the package (tsc -b && mcpkit-bundle) before the release.`,
    );
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ReleaseError(
      `${file} failed to load (${importFailure(error, dir)}); rebuild the package and try again.`,
    );
  }
  if (!(name in module)) throw new ReleaseError(`${file} has no export named ${name}.`);
  return module[name];
}

function checkCli(value: unknown): CliDef {
  const cli = value as Partial<CliDef> | undefined;
  if (typeof cli?.bin !== 'string' || typeof cli.usage !== 'string') {
    throw new ReleaseError(
      'dist/cli.js exports a cli without bin and usage; export the ServerBin that bin.ts runs.',
    );
  }
  return cli as CliDef;
}

function checkList<T extends { name: string }>(value: unknown, file: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item?.name !== 'string')) {
    throw new ReleaseError(`${file} must export a list of definitions, each with a name.`);
  }
  return value as T[];
}

/**
 * The toolkit's runner as the server itself resolves it: the variable names and common flags
 * must be the ones the server will read at run time, whatever version of the build tool runs.
 */
async function loadRunner(dir: string): Promise<Pick<ServerDescription, 'envName' | 'commonOptions'>> {
  let resolved: string;
  try {
    resolved = createRequire(join(dir, 'package.json')).resolve('@mcpkit/core/runner');
  } catch {
    throw new ReleaseError('@mcpkit/core is not installed for this package; run npm install first.');
  }
  const runner = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  if (typeof runner.envName !== 'function') {
    throw new ReleaseError(
      'This @mcpkit/core has no envName; update it to a version that reads flags from the environment.',
    );
  }
  const common = runner.COMMON_OPTIONS as Record<string, FlagDef> | undefined;
  return {
    envName: runner.envName as (flag: string) => string,
    ...(common && typeof common === 'object' ? { commonOptions: common } : {}),
  };
}

/** Reads the package folder `dir` (built) into a description. */
export async function loadDescription(dir: string): Promise<ServerDescription> {
  const pkg = readPackageJson(dir) as PackageJson;
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') {
    throw new ReleaseError('package.json has no name or version.');
  }
  const cli = checkCli(await importExport(dir, 'dist/cli.js', 'cli'));
  const tools = checkList<ToolDef>(
    await importExport(dir, 'dist/tools/index.js', 'tools'),
    'dist/tools/index.js',
  );
  const prompts = checkList<PromptDef>(
    await importExport(dir, 'dist/prompts/index.js', 'prompts', true),
    'dist/prompts/index.js',
  );
  return { dir, pkg, cli, tools, prompts, ...(await loadRunner(dir)) };
}
