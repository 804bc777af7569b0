/**
 * The MCP Registry's `server.json`, from the same description as the bundle: the npm package
 * with its arguments and variables, and the `.mcpb` attached to the GitHub release with its hash.
 * Refuses what the registry would refuse (no `mcpName`, a description over 100 characters) with
 * one sentence, before anything is written.
 */
import type { FlagDef, ServerDescription } from './description.js';
import { ReleaseError } from './errors.js';
import { type Repository, releaseAssetUrl, releaseTag, repositoryOf } from './repository.js';
import { knownFlags } from './settings.js';

/** The dated schema this file is written for (test/packaging keeps a pinned copy). */
export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The registry's limit on `description`. */
export const MAX_DESCRIPTION = 100;

type Format = 'string' | 'number' | 'boolean' | 'filepath';

interface Input {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: Format;
}
export type Argument =
  | (Input & { type: 'positional'; valueHint: string; isRepeated?: boolean })
  | (Input & { type: 'named'; name: string; isRepeated?: boolean });
export type EnvironmentVariable = Input & { name: string };

export interface ServerJson {
  $schema: string;
  name: string;
  title?: string;
  description: string;
  version: string;
  repository: { url: string; source: string; subfolder?: string };
  websiteUrl?: string;
  packages: {
    registryType: 'npm' | 'mcpb';
    identifier: string;
    version: string;
    fileSha256?: string;
    transport: { type: 'stdio' };
    packageArguments?: Argument[];
    environmentVariables?: EnvironmentVariable[];
  }[];
}

/** The `.mcpb` a release attaches. */
export interface BundleFile {
  file: string;
  sha256: string;
}

/** Variables with a meaning of their own, read by every bin; both are secrets. */
const SECRETS: EnvironmentVariable[] = [
  {
    name: 'MCPKIT_TOKEN',
    description: 'Bearer token HTTP clients must send (required to listen beyond loopback).',
    isSecret: true,
    format: 'string',
  },
  {
    name: 'MCPKIT_STATE_KEY',
    description: 'Shared secret (at least 32 bytes) for multi-round calls and cursors across replicas.',
    isSecret: true,
    format: 'string',
  },
];

/** Flags that ask for something rather than set it; no variable carries them. */
const NOT_SETTINGS = new Set(['help', 'version']);

/** The toolkit writes `<n>` or `<seconds>` for a flag that takes a number. */
function formatOf(flag: FlagDef): Format {
  if (flag.type === 'boolean') return 'boolean';
  return flag.valueName === 'n' || flag.valueName === 'seconds' ? 'number' : 'string';
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The registry name, checked against the repository when it claims a GitHub namespace. */
export function registryName(desc: ServerDescription, repo: Repository): string {
  const name = desc.pkg.mcpName;
  if (!name) {
    throw new ReleaseError(
      `package.json has no mcpName; add one such as "io.github.${repo.owner}/${desc.cli.bin}" so the MCP Registry can list the server.`,
    );
  }
  const owner = /^io\.github\.([^/]+)\//.exec(name)?.[1];
  if (owner !== undefined && owner.toLowerCase() !== repo.owner.toLowerCase()) {
    throw new ReleaseError(
      `mcpName ${name} claims the GitHub namespace of ${owner}, but the repository belongs to ${repo.owner}.`,
    );
  }
  return name;
}

/** Refuses a description the registry would refuse. */
export function registryDescription(desc: ServerDescription): string {
  const text = desc.pkg.description ?? '';
  if (text.length === 0)
    throw new ReleaseError('package.json has no description; the MCP Registry requires one.');
  if (text.length > MAX_DESCRIPTION) {
    throw new ReleaseError(
      `package.json's description is ${text.length} characters; the MCP Registry takes at most ${MAX_DESCRIPTION}.`,
    );
  }
  return text;
}

/** The positional slot, then every value-taking flag of the server (switches go by variable). */
function packageArguments(desc: ServerDescription): Argument[] {
  const args: Argument[] = [];
  const slot = desc.cli.positionals;
  if (slot) {
    const setting = Object.values(desc.cli.settings ?? {}).find((s) => s.fills === 'positionals');
    const path = setting?.type === 'directory' || setting?.type === 'file';
    args.push({
      type: 'positional',
      valueHint: slot.name,
      description: sentence(slot.description),
      isRequired: slot.required,
      isRepeated: slot.repeated,
      format: path ? 'filepath' : 'string',
    });
  }
  for (const [name, flag] of Object.entries(desc.cli.options ?? {})) {
    if (flag.type === 'boolean') continue;
    args.push({
      type: 'named',
      name: `--${name}`,
      description: sentence(flag.description),
      isRequired: false,
      isRepeated: flag.multiple === true,
      format: formatOf(flag),
    });
  }
  return args;
}

/** Every flag's variable (the common flags' too, when the toolkit exports them), then the secrets. */
function environmentVariables(desc: ServerDescription): EnvironmentVariable[] {
  const flags = knownFlags(desc) ?? { ...(desc.cli.options ?? {}) };
  const vars: EnvironmentVariable[] = Object.entries(flags)
    .filter(([name]) => !NOT_SETTINGS.has(name))
    .map(([name, flag]) => ({
      name: desc.envName(name),
      description: sentence(`${flag.description}${flag.multiple ? ' (comma-separated)' : ''}`),
      isRequired: false,
      format: formatOf(flag),
    }));
  return [...vars, ...SECRETS];
}

/** The server.json for `desc` and the bundle made from it. */
export function buildServerJson(desc: ServerDescription, bundle: BundleFile): ServerJson {
  const repo = repositoryOf(desc.pkg);
  const name = registryName(desc, repo);
  const description = registryDescription(desc);
  const { pkg, cli } = desc;
  const tag = releaseTag(cli.bin, pkg.version);
  return {
    $schema: SERVER_SCHEMA_URL,
    name,
    ...(cli.title ? { title: cli.title } : {}),
    description,
    version: pkg.version,
    repository: {
      url: repo.url,
      source: repo.source,
      ...(repo.subfolder ? { subfolder: repo.subfolder } : {}),
    },
    ...(pkg.homepage ? { websiteUrl: pkg.homepage } : {}),
    packages: [
      {
        registryType: 'npm',
        identifier: pkg.name,
        version: pkg.version,
        transport: { type: 'stdio' },
        packageArguments: packageArguments(desc),
        environmentVariables: environmentVariables(desc),
      },
      {
        registryType: 'mcpb',
        identifier: releaseAssetUrl(repo, tag, bundle.file),
        version: pkg.version,
        fileSha256: bundle.sha256,
        transport: { type: 'stdio' },
      },
    ],
  };
}
