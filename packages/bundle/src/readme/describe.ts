/**
 * A built server's description, read from its package folder: package.json, the tool definitions
 * (`dist/tools/index.js`, export `tools`) and its command line (`dist/cli.js`, export `cli`).
 * Importing them runs no server: both modules only define things.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LaunchSpec, shortName } from '@mcpkit/core/install';
import { importFailure } from '../import-failure.js';
import type { ToolSummary } from './tools-table.js';

/** Thrown when the package cannot be described; the message is one sentence saying what to do. */
export class DescribeError extends Error {}

interface PackageManifest {
  name?: string;
  bin?: string | Record<string, string>;
}

/** What `dist/cli.js` exports as `cli`; only the fields the README uses. */
interface CliDescription {
  bin?: string;
  exampleArgs?: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readManifest(dir: string): PackageManifest {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) {
    throw new DescribeError(
      'There is no package.json here; run mcpkit-bundle readme from the server’s package folder.',
    );
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
  } catch {
    throw new DescribeError('package.json is not valid JSON; fix it and run mcpkit-bundle readme again.');
  }
}

/** Imports `dist/<file>` of the package and returns its export `name`. */
async function importBuilt(dir: string, file: string, name: string): Promise<unknown> {
  const path = join(dir, 'dist', file);
  if (!existsSync(path)) {
    throw new DescribeError(`dist/${file} is missing; build the package first (npx turbo run build).`);
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new DescribeError(
      `dist/${file} failed to load (${importFailure(error, dir)}); rebuild the package and try again.`,
    );
  }
  if (!(name in module)) {
    throw new DescribeError(
      `dist/${file} has no export named ${name}; export it from src/${file.replace(/\.js$/, '.ts')}.`,
    );
  }
  return module[name];
}

/** The tool definitions, in the order the server registers them. */
export async function loadTools(dir: string): Promise<ToolSummary[]> {
  const tools = await importBuilt(dir, 'tools/index.js', 'tools');
  if (!Array.isArray(tools) || !tools.every((t) => isRecord(t) && typeof t.name === 'string')) {
    throw new DescribeError(
      'dist/tools/index.js exports tools that are not a list of tool definitions; export the array of defineTool results.',
    );
  }
  return tools as ToolSummary[];
}

/** The bin name: the one `cli` names when package.json has it, else package.json's first bin. */
function binOf(manifest: PackageManifest, cli: CliDescription): string {
  const bare = String(manifest.name).replace(/^@[^/]+\//, '');
  const bins = typeof manifest.bin === 'string' ? { [bare]: manifest.bin } : (manifest.bin ?? {});
  const names = Object.keys(bins);
  if (cli.bin !== undefined && names.includes(cli.bin)) return cli.bin;
  const [first] = names;
  if (first === undefined) {
    throw new DescribeError(
      'package.json has no bin; a server README’s install section needs the command it runs.',
    );
  }
  return first;
}

/** How the README's install section launches the server: the package, its bin and the example arguments. */
export async function loadLaunchSpec(dir: string, manifest: PackageManifest): Promise<LaunchSpec> {
  if (!manifest.name)
    throw new DescribeError('package.json has no name; the install section needs the package to run.');
  const cli = await importBuilt(dir, 'cli.js', 'cli');
  if (!isRecord(cli))
    throw new DescribeError(
      'dist/cli.js exports a cli that is not an object; export the server’s description.',
    );
  const description = cli as CliDescription;
  const args = description.exampleArgs ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw new DescribeError(
      'cli.exampleArgs in dist/cli.js is not a list of strings; give the arguments the README shows.',
    );
  }
  // The same name the server's own `config` command puts in the entries it prints.
  return {
    name: shortName(manifest.name),
    packageName: manifest.name,
    bin: binOf(manifest, description),
    args: [...args],
  };
}
