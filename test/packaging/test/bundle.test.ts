/**
 * Bundled bins (a server's `dist/bin.js`) carry their dependencies inside. Scanning them for
 * imports cannot tell code from code-generation strings, so they are judged by running them from
 * a copy of the unpacked tarball with no node_modules anywhere above it.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, discoverServers, loadWorld, textOf } from '@mcpkit/core/testing';
import { describe, expect, inject, it } from 'vitest';
import { isBundle } from '../src/bundles.js';
import { run, userPath } from '../src/run.js';
import { binsOf, ROOT } from '../src/workspaces.js';

const packed = inject('packed');
const scratch = inject('scratch');
/** Each server's test world says how its bin starts serving (directories, flags, roots). */
const servers = discoverServers(ROOT);

const bundled = packed.flatMap((pkg) =>
  Object.entries(binsOf(pkg.manifest))
    .filter(([, script]) => isBundle(readFileSync(join(pkg.root, script), 'utf8')))
    .map(([bin, script]) => ({ pkg, bin, script })),
);

it('every server bin is bundled', () => {
  const servers = packed.filter((p) => p.path.startsWith('servers/'));
  expect(servers.length).toBeGreaterThan(0);
  for (const pkg of servers) {
    for (const bin of Object.keys(binsOf(pkg.manifest))) {
      expect(
        bundled.some((b) => b.bin === bin),
        `${bin} is not bundled`,
      ).toBe(true);
    }
  }
});

describe.each(bundled)('$bin', ({ pkg, bin, script }) => {
  const alone = join(scratch, 'alone', bin);
  cpSync(pkg.root, alone, { recursive: true });
  const file = join(alone, script);

  it('has no node_modules to lean on', () => {
    let dir = alone;
    for (;;) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
      const parent = join(dir, '..');
      if (parent === dir) break;
      dir = parent;
    }
  });

  it('ships the licenses of what it bundled', () => {
    const notices = readFileSync(`${file}.LICENSE.txt`, 'utf8');
    for (const dep of Object.keys(pkg.manifest.dependencies ?? {}).filter((d) => !d.startsWith('@mcpkit/'))) {
      expect(notices, dep).toMatch(new RegExp(`^## ${dep.replace(/[/.]/g, '\\$&')}@`, 'm'));
    }
  });

  it('prints its version with nothing installed', async () => {
    const result = await run('node', [file, '--version'], { cwd: alone });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it.each(['legacy', 'modern'] as const)(
    'serves its test world in a %s-era stdio session with nothing installed',
    async (era) => {
      const server = servers.find((s) => s.packageName === pkg.name);
      if (server === undefined) throw new Error(`${pkg.path} has a bundled bin but no test/world.ts`);
      const world = await loadWorld(server);
      const dir = join(scratch, 'alone-worlds', `${bin}-${era}`);
      await mkdir(dir, { recursive: true });
      const built = await world.setup(dir);
      try {
        const session = await connect(undefined, {
          era,
          ...(built.roots ? { roots: built.roots } : {}),
          transport: { stdio: { command: 'node', args: [file, ...built.args], env: { PATH: userPath() } } },
        });
        try {
          const tools = (await session.client.listTools()).tools.map((t) => t.name);
          expect(tools).toEqual(expect.arrayContaining(world.tools));
          // A call, so code the bin loads later (worker scripts, lazy imports) runs alone too.
          const [read] = built.reads;
          expect(textOf(await session.callTool(read.tool, read.args))).toContain(read.expect);
        } finally {
          await session.close();
        }
      } finally {
        await built.close?.();
      }
    },
  );
});
