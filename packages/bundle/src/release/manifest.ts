/**
 * The bundle's `manifest.json`, from the server's description: who made it, how a host starts it
 * (the bundled bin on the host's own Node, settings substituted), what it offers, and where it
 * runs.
 */
import type { PackageJson, PromptDef, ServerDescription } from './description.js';
import { ReleaseError } from './errors.js';
import { type Repository, repositoryOf } from './repository.js';
import { mapSettings, type UserConfigEntry } from './settings.js';

/**
 * The manifest version these fields were written for. Pinned rather than taken from mcpb's newest
 * constant: a newer version may rename or require fields, and a manifest must not claim a version
 * its fields were never checked against.
 */
export const MANIFEST_VERSION = '0.4';

export type Platform = 'darwin' | 'win32' | 'linux';
export const ALL_PLATFORMS: readonly Platform[] = ['darwin', 'linux', 'win32'];

export interface ManifestOptions {
  /** Platforms the staged files run on: all, or this one when a native binary is inside. */
  platforms: readonly Platform[];
  /** The Node versions the bundle runs on (narrower than `engines` when a native binary is inside). */
  node?: string;
  /** Whether icon.png is staged beside the manifest. */
  icon: boolean;
}

export interface Manifest {
  manifest_version: string;
  name: string;
  display_name: string;
  version: string;
  description: string;
  author: { name: string; email?: string; url?: string };
  repository: { type: 'git'; url: string };
  homepage?: string;
  support?: string;
  license?: string;
  keywords?: string[];
  icon?: string;
  server: {
    type: 'node';
    entry_point: string;
    mcp_config: { command: 'node'; args: string[]; env: Record<string, string> };
  };
  tools: { name: string; description: string }[];
  prompts: { name: string; description: string; arguments: string[]; text: string }[];
  user_config: Record<string, UserConfigEntry>;
  compatibility: { platforms: Platform[]; runtimes?: { node: string } };
}

/** The script of the bin the cli names, as a path inside the package (`dist/bin.js`). */
export function binScript(pkg: PackageJson, bin: string): string {
  const bare = pkg.name.replace(/^@[^/]+\//, '');
  const bins = typeof pkg.bin === 'string' ? { [bare]: pkg.bin } : (pkg.bin ?? {});
  const script = bins[bin];
  if (script === undefined) {
    throw new ReleaseError(
      `package.json has no bin named ${bin}; the cli's bin must be one of the package's bins.`,
    );
  }
  return script.replace(/^\.\//, '');
}

/** package.json's author, or the repository's owner when it names none (the bundle spec requires one). */
function authorOf(pkg: PackageJson, repo: Repository): Manifest['author'] {
  const field = pkg.author;
  if (typeof field === 'object' && field.name) return { ...field };
  if (typeof field === 'string' && field.trim() !== '') {
    // npm's one-line form: `Name <email> (url)`.
    const match = /^([^<(]+?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?$/.exec(field.trim());
    return {
      name: match?.[1] ?? field.trim(),
      ...(match?.[2] ? { email: match[2] } : {}),
      ...(match?.[3] ? { url: match[3] } : {}),
    };
  }
  return { name: repo.owner, url: `https://${new URL(repo.url).host}/${repo.owner}` };
}

/**
 * The bundle spec wants a prompt's text, with `${arguments.NAME}` where each argument goes. Ours
 * are written at run time from live data, so the text lists what the prompt does and the
 * arguments it was given; the server still builds the real messages.
 */
function promptEntry(prompt: PromptDef): Manifest['prompts'][number] {
  const args = Object.keys(prompt.args?.shape ?? {});
  const lines = args.map((name) => `${name}: \${arguments.${name}}`);
  return {
    name: prompt.name,
    description: prompt.description,
    arguments: args,
    text: [prompt.title ? `${prompt.title}. ${prompt.description}` : prompt.description, ...lines].join('\n'),
  };
}

function bugsUrl(pkg: PackageJson): string | undefined {
  return typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
}

/** The manifest for `desc`, staged as `options` says. */
export function buildManifest(desc: ServerDescription, options: ManifestOptions): Manifest {
  const { pkg, cli } = desc;
  if (!pkg.description) throw new ReleaseError('package.json has no description; a bundle needs one.');
  const repo = repositoryOf(pkg);
  const entry = binScript(pkg, cli.bin);
  const settings = mapSettings(desc);
  const support = bugsUrl(pkg);
  const node = options.node ?? pkg.engines?.node;
  return {
    manifest_version: MANIFEST_VERSION,
    name: cli.bin,
    display_name: cli.title ?? cli.bin,
    version: pkg.version,
    description: pkg.description,
    author: authorOf(pkg, repo),
    repository: { type: 'git', url: repo.url },
    ...(pkg.homepage ? { homepage: pkg.homepage } : {}),
    ...(support ? { support } : {}),
    ...(pkg.license ? { license: pkg.license } : {}),
    ...(pkg.keywords?.length ? { keywords: [...pkg.keywords] } : {}),
    ...(options.icon ? { icon: 'icon.png' } : {}),
    server: {
      type: 'node',
      entry_point: entry,
      mcp_config: {
        command: 'node',
        args: [`\${__dirname}/${entry}`, ...settings.args],
        env: settings.env,
      },
    },
    tools: desc.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    prompts: desc.prompts.map(promptEntry),
    user_config: settings.userConfig,
    compatibility: {
      platforms: [...options.platforms],
      ...(node ? { runtimes: { node } } : {}),
    },
  };
}
