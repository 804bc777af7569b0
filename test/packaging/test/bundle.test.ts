/**
 * Bundled bins (a server's `dist/bin.js`) carry their dependencies inside. Scanning them for
 * imports cannot tell code from code-generation strings, so they are judged by running them from
 * a copy of the unpacked tarball with no node_modules anywhere above it.
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { isBundle } from '../src/bundles.js';
import { run } from '../src/run.js';
import { binsOf } from '../src/workspaces.js';
import { expectServesWorld, worldOf } from '../src/world-session.js';

const packed = inject('packed');
const scratch = inject('scratch');

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
      // The world's read makes code the bin loads later (worker scripts, lazy imports) run alone too.
      await expectServesWorld(await worldOf(pkg.name, pkg.path), {
        dir: join(scratch, 'alone-worlds', `${bin}-${era}`),
        launch: { command: 'node', args: [file] },
        eras: [era],
      });
    },
  );
});
