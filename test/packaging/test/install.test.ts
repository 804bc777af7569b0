/**
 * What npm and npx users get: every tarball installed together into an empty folder, then every
 * export loaded and every bin run from that install (`npx --no-install`, and a stdio session in
 * both protocol eras), with the user's Node and none of the monorepo on PATH.
 */
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { exportedSubpaths } from '../src/exports.js';
import { resolvedSources } from '../src/install.js';
import { run } from '../src/run.js';
import { binsOf } from '../src/workspaces.js';
import { expectServesWorld, worldOf } from '../src/world-session.js';

const packed = inject('packed');
const project = inject('installed');

it('installs every package from its tarball, never from the registry', () => {
  const sources = resolvedSources(project);
  for (const pkg of packed) expect(sources.get(pkg.name), pkg.name).toMatch(/^file:.*\.tgz$/);
});

/** Imports each subpath in a fresh Node from the install; resolves with what failed and why. */
async function importAll(specifiers: string[]): Promise<Record<string, string>> {
  const script = `
    const failed = {};
    for (const s of ${JSON.stringify(specifiers)}) {
      try { await import(s, s.endsWith('/package.json') ? { with: { type: 'json' } } : undefined); }
      catch (e) { failed[s] = String(e && e.message || e).split('\\n')[0]; }
    }
    process.stdout.write(JSON.stringify(failed));`;
  const result = await run('node', ['--input-type=module', '-e', script], { cwd: project });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, string>;
}

describe.each(packed)('$name', (pkg) => {
  it('loads every exported subpath (optional peers aside) from the installed copy', async () => {
    const m = pkg.manifest;
    const optionalPeers = Object.keys(m.peerDependencies ?? {}).filter(
      (peer) => m.peerDependenciesMeta?.[peer]?.optional === true,
    );
    const specifiers = exportedSubpaths(m.exports).map((sub) =>
      sub === '.' ? m.name : `${m.name}${sub.slice(1)}`,
    );
    const failed = await importAll(specifiers);
    // A subpath built on an optional peer may fail only by naming that peer.
    const unexpected = Object.entries(failed).filter(
      ([, message]) => !optionalPeers.some((peer) => message.includes(`'${peer}'`)),
    );
    expect(Object.fromEntries(unexpected)).toEqual({});
  });

  const bins = Object.keys(binsOf(pkg.manifest));
  // A tool package's bin (the bundler) is not a server: it gets --help, not a session.
  const isServer = pkg.path.startsWith('servers/');
  describe.each(bins.filter(() => !isServer).map((bin) => ({ bin })))('tool bin $bin', ({ bin }) => {
    it('prints its usage with --help', async () => {
      const result = await run('npx', ['--no-install', bin, '--help'], { cwd: project });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Usage: /);
    });
  });

  describe.each(bins.filter(() => isServer).map((bin) => ({ bin })))('bin $bin', ({ bin }) => {
    const npx = (args: string[]) => run('npx', ['--no-install', bin, ...args], { cwd: project });

    it('prints the package version with --version', async () => {
      const result = await npx(['--version']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe(pkg.version);
    });

    it('lists --transport in --help', async () => {
      const result = await npx(['--help']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('--transport');
    });

    it.each(['legacy', 'modern'] as const)('serves a %s-era stdio session that lists tools', async (era) => {
      // The world's read exercises the installed bin's dependencies, not just their loading.
      await expectServesWorld(await worldOf(pkg.name, pkg.path), {
        dir: join(project, 'data', `${bin}-${era}`),
        launch: { command: join(project, 'node_modules', '.bin', bin) },
        eras: [era],
        check: (session, tools) => {
          expect(session.client.getProtocolEra()).toBe(era);
          expect(session.client.getServerVersion()?.version).toBe(pkg.version);
          for (const tool of tools) expect(tool.description ?? '', tool.name).not.toBe('');
        },
      });
    });
  });
});
