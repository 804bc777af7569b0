/**
 * Release-ready packages: `npm publish --dry-run` of every publishable package passes, and the
 * manifest each tarball ships carries what npm's provenance and the MCP Registry read: the
 * repository with the package's folder, homepage, bugs, keywords, a description of at most 100
 * characters, and for servers an `mcpName` in the namespace the repository gives.
 *
 * The dry run uses an empty user config, a throwaway cache and `--offline`: no token is read, no
 * request leaves the machine, and nothing can be uploaded or written to the user's npm setup.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { run, userEnv } from '../src/run.js';
import { type Manifest, ROOT } from '../src/workspaces.js';

/** The fields of a manifest this file checks, beyond what the other packaging tests read. */
interface ReleaseFields {
  repository?: string | { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: string | { url?: string };
  keywords?: string[];
  mcpName?: string;
}

const packed = inject('packed');
const scratch = join(inject('scratch'), 'publish');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as ReleaseFields;

const urlOf = (field: ReleaseFields['repository'] | ReleaseFields['bugs']): string | undefined =>
  typeof field === 'string' ? field : field?.url;

/** `git+https://github.com/owner/name.git` → `https://github.com/owner/name`. */
const repositoryWeb = (urlOf(root.repository) ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
/** The registry namespace the repository gives: `io.github.<owner>`. */
const namespace = `io.github.${/^https:\/\/github\.com\/([^/]+)\//.exec(repositoryWeb)?.[1]}`;

it('reads the repository from the root package.json', () => {
  expect(repositoryWeb).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
  expect(namespace).not.toBe('io.github.undefined');
});

describe.each(packed)('$name', (pkg) => {
  const m = pkg.manifest as Manifest & ReleaseFields;

  it('passes npm publish --dry-run without credentials, uploading nothing', async () => {
    const home = join(scratch, basename(pkg.tarball, '.tgz'));
    mkdirSync(home, { recursive: true });
    // Empty user and global configs: no login the machine has can reach this run.
    const userconfig = join(home, 'npmrc');
    const globalconfig = join(home, 'global-npmrc');
    writeFileSync(userconfig, '');
    writeFileSync(globalconfig, '');
    // userEnv drops npm's per-script settings; the token variables go too, so none can be used.
    const env = userEnv();
    for (const name of ['NPM_TOKEN', 'NODE_AUTH_TOKEN', 'NPM_CONFIG_TOKEN']) delete env[name];
    const result = await run(
      'npm',
      [
        'publish',
        '--dry-run',
        '--json',
        '--offline',
        '--no-update-notifier',
        '--userconfig',
        userconfig,
        '--globalconfig',
        globalconfig,
        '--cache',
        join(home, 'cache'),
      ],
      { cwd: join(ROOT, pkg.path), env, timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    // npm says it is a dry run, and that a real publish would need a login: it had none.
    expect(result.stderr).toMatch(/Publishing to \S+ with tag latest .*\(dry-run\)/);
    expect(result.stderr).toMatch(/requires you to be logged in .*\(dry-run\)/);
    expect(result.stderr).not.toMatch(/^npm (?:error|ERR!)/m);
    // npm "auto-corrects" a broken manifest on publish by dropping fields (a bin whose file is
    // missing, an invalid repository); what would be published must be what was written.
    expect(
      result.stderr,
      'npm would rewrite this package.json on publish; make the change "npm pkg fix" makes',
    ).not.toContain('auto-corrected');
    expect(readFileSync(userconfig, 'utf8') + readFileSync(globalconfig, 'utf8')).toBe('');

    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    const summary = (printed[pkg.name] ?? printed) as {
      name: string;
      version: string;
      files: { path: string }[];
    };
    expect(summary.name).toBe(pkg.name);
    expect(summary.version).toBe(pkg.version);
    // The same files npm pack put in the tarball the other packaging tests inspect.
    expect(summary.files.map((f) => f.path).sort()).toEqual(pkg.files);
  }, 150_000);

  it('names its repository folder, homepage, bugs and keywords', () => {
    expect(typeof m.repository).toBe('object');
    expect(urlOf(m.repository)).toBe(urlOf(root.repository));
    expect(typeof m.repository === 'object' && m.repository.directory).toBe(pkg.path);
    expect(m.homepage).toBe(`${repositoryWeb}/tree/main/${pkg.path}#readme`);
    expect(urlOf(m.bugs)).toBe(urlOf(root.bugs));
    expect(m.keywords?.length).toBeGreaterThan(0);
    expect(m.keywords).toContain('mcp');
    for (const keyword of m.keywords ?? []) expect(keyword).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
  });

  it('describes itself in at most 100 characters (the MCP Registry limit)', () => {
    expect(m.description?.trim()).toBeTruthy();
    expect(m.description?.length).toBeLessThanOrEqual(100);
  });

  it.runIf(pkg.path.startsWith('servers/'))(
    'has the mcpName the registry checks, in the repository namespace',
    () => {
      const short = pkg.path.split('/').pop();
      expect(m.mcpName).toBe(`${namespace}/${short}`);
    },
  );
});
