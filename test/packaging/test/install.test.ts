/**
 * What npm and npx users get: every tarball installed together into an empty folder, then every
 * export loaded and every bin run from that install (`npx --no-install`, and a stdio session in
 * both protocol eras), with the user's Node and none of the monorepo on PATH.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, discoverServers, loadWorld, textOf } from '@mcpkit/core/testing';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { exportedSubpaths } from '../src/exports.js';
import { installTarballs, resolvedSources } from '../src/install.js';
import { run, userPath } from '../src/run.js';
import { binsOf, ROOT } from '../src/workspaces.js';

const packed = inject('packed');
const project = join(inject('scratch'), 'user-project');

/** Each server's test world says how its bin starts serving (directories, flags, roots). */
const servers = discoverServers(ROOT);

beforeAll(async () => {
  await installTarballs(
    project,
    packed.map((p) => p.tarball),
  );
}, 240_000);

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
      const server = servers.find((s) => s.packageName === pkg.name);
      if (server === undefined) throw new Error(`${pkg.path} has a bin but no test/world.ts`);
      const world = await loadWorld(server);
      const dir = join(project, 'data', `${bin}-${era}`);
      await mkdir(dir, { recursive: true });
      const built = await world.setup(dir);
      try {
        const session = await connect(undefined, {
          era,
          ...(built.roots ? { roots: built.roots } : {}),
          transport: {
            stdio: {
              command: join(project, 'node_modules', '.bin', bin),
              args: built.args,
              env: { PATH: userPath() },
            },
          },
        });
        try {
          expect(session.client.getProtocolEra()).toBe(era);
          expect(session.client.getServerVersion()?.version).toBe(pkg.version);
          const { tools } = await session.client.listTools();
          expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(world.tools));
          for (const tool of tools) expect(tool.description ?? '', tool.name).not.toBe('');
          // A call the world sets up, so the installed bin's dependencies are exercised, not just loaded.
          const [read] = built.reads;
          expect(textOf(await session.callTool(read.tool, read.args))).toContain(read.expect);
        } finally {
          await session.close();
        }
      } finally {
        await built.close?.();
      }
    });
  });
});
