/**
 * Where the source lives, from package.json's `repository`: the browsable URL, the host, the
 * folder in a monorepo, and the download URL of a release asset. npm accepts several spellings
 * (`git+https://…​.git`, `github:owner/repo`, `git@github.com:owner/repo.git`); all mean the same.
 */
import type { PackageJson } from './description.js';
import { ReleaseError } from './errors.js';

export interface Repository {
  /** https URL without `.git`, e.g. `https://github.com/mcpkit/mcpkit`. */
  url: string;
  /** `github`, `gitlab`, … (the host's first label). */
  source: string;
  owner: string;
  name: string;
  /** The package's folder inside the repository, e.g. `servers/git`. */
  subfolder?: string;
}

const SHORTHAND = /^(github|gitlab|bitbucket):([^/\s]+)\/([^/\s]+?)(?:\.git)?$/;
const SCP = /^git@([^:]+):([^/\s]+)\/([^/\s]+?)(?:\.git)?$/;
const HOSTS: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

function parts(raw: string): { host: string; owner: string; name: string } | undefined {
  const short =
    SHORTHAND.exec(raw) ?? (/^[^/:\s]+\/[^/:\s]+$/.test(raw) ? SHORTHAND.exec(`github:${raw}`) : null);
  if (short)
    return { host: HOSTS[short[1] ?? 'github'] ?? 'github.com', owner: short[2] ?? '', name: short[3] ?? '' };
  const scp = SCP.exec(raw);
  if (scp) return { host: scp[1] ?? '', owner: scp[2] ?? '', name: scp[3] ?? '' };
  try {
    const url = new URL(raw.replace(/^git\+/, ''));
    const [owner, name] = url.pathname
      .replace(/^\/+/, '')
      .replace(/\.git$/, '')
      .split('/');
    if (owner && name) return { host: url.hostname, owner, name };
  } catch {
    // fall through to the refusal
  }
  return undefined;
}

/** The package's repository; refuses a package.json without one. */
export function repositoryOf(pkg: PackageJson): Repository {
  const field = pkg.repository;
  const raw = typeof field === 'string' ? field : field?.url;
  const found = raw ? parts(raw.trim()) : undefined;
  if (!found) {
    throw new ReleaseError(
      'package.json has no repository URL a release can link to; add "repository": { "type": "git", "url": "https://github.com/<owner>/<repo>.git" }.',
    );
  }
  const subfolder = typeof field === 'object' ? field.directory?.replace(/^\.?\/+|\/+$/g, '') : undefined;
  return {
    url: `https://${found.host}/${found.owner}/${found.name}`,
    source: found.host.split('.')[0] ?? found.host,
    owner: found.owner,
    name: found.name,
    ...(subfolder ? { subfolder } : {}),
  };
}

/** The release tag of one package in a repository that releases several: `<bin>-v<version>`. */
export function releaseTag(bin: string, version: string): string {
  return `${bin}-v${version}`;
}

/** Where a file attached to a GitHub release is downloaded from. */
export function releaseAssetUrl(repo: Repository, tag: string, file: string): string {
  if (repo.source !== 'github') {
    throw new ReleaseError(
      `The bundle's download URL is made for GitHub releases, and this repository is on ${repo.source}.`,
    );
  }
  return `${repo.url}/releases/download/${encodeURIComponent(tag)}/${encodeURIComponent(file)}`;
}
